// Content search's index (docs/architecture.md, "Content search"): each upload's text is extracted
// by a job after the upload (jobs/document-text.ts) and kept as lexemes on its row; the documents
// from before, or whose job was lost, are found by the backfill, a few at a time, from the rows
// still without text_extracted_at, so it resumes wherever it stopped.
import type { AppDeps } from "../../trpc/context.ts";
import { ObjectNotFoundError } from "../../storage/storage.ts";
import { type ExtractedText, extractText } from "./content-text.ts";
import { findDocumentForText, pendingTextDocuments, recordDocumentText } from "./job-queries.ts";

type Deps = Pick<AppDeps, "db" | "storage" | "logger" | "now">;

/**
 * Extracts and records one document's text. A document gone, trashed or already done is left
 * alone; an unreadable one is recorded as tried, with nothing, and logged by id and reason only.
 * A storage or database failure throws (the job runs again later).
 */
export async function indexDocumentText(deps: Deps, documentId: string): Promise<void> {
  const document = await findDocumentForText(deps.db, documentId);
  if (!document) return;
  let extracted: ExtractedText;
  try {
    extracted = await extractText(deps.storage, document.storage_key, document.content_type, document.file_size);
  } catch (err) {
    // Its content is gone for good (the orphan sweep, a lost bucket): nothing will ever be read.
    if (!(err instanceof ObjectNotFoundError)) throw err;
    extracted = { skipped: "missing" };
  }
  if ("skipped" in extracted) {
    deps.logger.info({ documentId, reason: extracted.skipped }, "document text skipped");
    await recordDocumentText(deps.db, documentId, null, deps.now());
    return;
  }
  await recordDocumentText(deps.db, documentId, extracted.text, deps.now());
}

/** Documents the backfill does per run before it hands over to its next run. */
export const BACKFILL_BATCH = 50;

/**
 * One run of the backfill: up to BACKFILL_BATCH documents after `afterId`, one at a time (it is
 * background work; uploads' own jobs come first). Answers the last id done when there may be more,
 * null when the worklist is empty. A document whose content cannot be read now (storage down) is
 * left for a later run and the run goes on.
 */
export async function backfillDocumentText(deps: Deps, afterId: string | null): Promise<string | null> {
  const ids = await pendingTextDocuments(deps.db, afterId, BACKFILL_BATCH);
  for (const id of ids) {
    try {
      await indexDocumentText(deps, id);
    } catch (err) {
      deps.logger.warn({ documentId: id, err: (err as Error).name }, "document text backfill: left for later");
    }
  }
  return ids.length === BACKFILL_BATCH ? ids.at(-1)! : null;
}
