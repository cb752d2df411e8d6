// The app as the benchmarks run it: server/index.ts's start, in a child process of its own (so its
// memory and CPU are its own), serving the client build the bench made (BENCH_CLIENT_DIR).
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { loadConfig } from "../../server/config.ts";
import { migrateToLatest, openDatabase } from "../../server/db/database.ts";
import { tuneGarbageCollector } from "../../server/garbage-collector.ts";
import { createLogger } from "../../server/logger.ts";
import { startServer } from "../../server/server.ts";
import { createBackendStorage } from "../../server/storage/create-storage.ts";

const config = loadConfig();
const logger = createLogger(config.logLevel);
// As server/index.ts does: the benches measure the app as production runs it.
tuneGarbageCollector();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
// As server/index.ts does, so the app also runs by hand on a fresh DATA_DIR.
await migrateToLatest(database.db, logger);
const clientDir = process.env.BENCH_CLIENT_DIR || undefined;
// BENCH_UNENCRYPTED_STORAGE=1: the same app storing documents as they were stored before encryption
// at rest, the baseline of the encryption rows (scripts/bench/encryption.ts); only the bench sets it.
const overrides = process.env.BENCH_UNENCRYPTED_STORAGE === "1" ? { storage: createBackendStorage(config) } : undefined;
const server = await startServer({ config, logger, database, app: { clientDir }, overrides });

// Where a latency tail comes from: how long the event loop was held up, and the longest GC pause,
// since the bench last asked ("pauses:reset", then "pauses").
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
let longestGcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longestGcMs = Math.max(longestGcMs, entry.duration);
}).observe({ entryTypes: ["gc"] });
process.on("message", (message) => {
  if (message === "pauses:reset") {
    loopDelay.reset();
    longestGcMs = 0;
  } else if (message === "pauses") {
    process.send?.({ pauses: { loopDelayP99Ms: loopDelay.percentile(99) / 1e6, loopDelayMaxMs: loopDelay.max / 1e6, longestGcMs } });
  }
});

process.send?.({ port: server.port });
process.on("disconnect", () => {
  void server.close().then(() => process.exit(0));
});
