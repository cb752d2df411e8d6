// Content search (docs/architecture.md, "Content search"): `document-text` extracts one uploaded
// document's text (sent in the upload's own transaction, so a committed upload always has its job);
// `document-text-backfill` works through the documents from before, or whose job gave up, a batch a
// run, every ten minutes and straight on after a full batch. Its queue is stately: at most one run
// under way and one waiting, however many instances and schedules. Payloads carry ids only.
import { backfillDocumentText, indexDocumentText } from "../domains/documents/text-index.ts";
import type { JobKind } from "./queue.ts";

declare module "./queue.ts" {
  interface JobPayloads {
    "document-text": { documentId: string };
    /** Where the previous run stopped (none: from the start of the worklist). */
    "document-text-backfill": { afterId?: string };
  }
}

export const documentTextJob: JobKind<"document-text"> = {
  name: "document-text",
  // PDF parsing is CPU work in this process: one at a time, a few fetched at once.
  batch: { size: 4, concurrency: 1 },
  async run(deps, job) {
    await indexDocumentText(deps, job.data.documentId);
  },
};

export const documentTextBackfillJob: JobKind<"document-text-backfill"> = {
  name: "document-text-backfill",
  schedule: "*/10 * * * *",
  policy: "stately",
  async run(deps, job) {
    const next = await backfillDocumentText(deps, job.data.afterId ?? null);
    // A full batch: the next one at once. Refused (null) when a run is already waiting, which
    // starts from the beginning of the worklist and so misses nothing.
    if (next) await deps.jobs.boss.send("document-text-backfill", { afterId: next });
  },
};
