// How the server's process sizes its heap (docs/performance.md, "The collector").
//
// V8 sets the old generation's next limit from how fast the program allocates on its heap and how
// fast it collects, here about 1.1-1.7 times the live heap. The server's transfers allocate mostly
// outside the heap (a file's buffers, each cipher output) and that memory counts toward the same
// limit, which the heuristic does not foresee: serving 8 encrypted downloads at a time, the app ran a
// full collection every few tens of MB, each marking the whole live heap, and spent more CPU on them
// than on the cipher. A fixed growth of twice the live heap brought that to one or two per run of
// 1,000 MB, in the encrypted app and the plain one alike, for a few tens of MB more heap between
// collections.
import v8 from "node:v8";

export const HEAP_GROWTH_FLAG = "--heap-growing-percent=100";

/**
 * Called once at start, before the first request. The flag is read each time V8 sets a new limit, so
 * setting it from here takes effect (checked with --trace-gc); a Node whose V8 lacks it prints a
 * warning and keeps its default.
 */
export function tuneGarbageCollector(): void {
  v8.setFlagsFromString(HEAP_GROWTH_FLAG);
}
