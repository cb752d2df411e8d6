// Streams a stored document to the browser as a download. Used by the owner's route here and by the
// admin route (GET /api/admin/documents/:id/download), which find the row each in their own way.
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { TRPCError } from "@trpc/server";
import type { Response } from "express";
import type { Logger } from "pino";
import type { StoredDocument } from "../routers/documents/queries.ts";
import { DOCUMENT_NOT_FOUND } from "../routers/documents/service.ts";
import { ObjectNotFoundError, type ObjectStorage } from "../storage/storage.ts";

/**
 * `attachment` with the original name twice: an ASCII-only `filename` for old clients and the exact
 * name UTF-8 percent-encoded in `filename*` (RFC 6266 and RFC 5987), which browsers prefer.
 */
export function attachmentDisposition(filename: string): string {
  const asciiFallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends the object of a document row: never rendered by the browser (attachment, nosniff, a sandbox
 * CSP), never cached, never recompressed (so Content-Length holds). Rejects, before any header is
 * sent, when the object cannot be opened (NOT_FOUND when it is gone); a failure after that only cuts
 * the response short.
 */
export async function sendStoredDocument(
  res: Response,
  storage: ObjectStorage,
  logger: Logger,
  document: StoredDocument,
): Promise<void> {
  const body = await openStoredObject(storage, logger, document);
  res.status(200);
  res.setHeader("Content-Type", document.content_type);
  res.setHeader("Content-Length", String(document.file_size));
  res.setHeader("Content-Disposition", attachmentDisposition(document.original_filename));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", "sandbox");
  res.setHeader("Cache-Control", "private, no-store, no-transform");
  try {
    await pipeline(body, res);
  } catch (err) {
    if (!res.writableEnded && !res.destroyed) logger.warn({ err, storage_key: document.storage_key }, "download cut short");
    res.destroy();
  }
}

/** A row whose object is gone is lost client data: the client hears "not found", the log a warning. */
async function openStoredObject(storage: ObjectStorage, logger: Logger, document: StoredDocument): Promise<Readable> {
  try {
    return await storage.get(document.storage_key);
  } catch (err) {
    if (!(err instanceof ObjectNotFoundError)) throw err;
    logger.warn({ document_id: document.id, storage_key: document.storage_key }, "download refused: the document's stored file is missing");
    throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
  }
}
