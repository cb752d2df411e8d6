// Streams a stored document to the browser as a download: the owner's route and the admin's
// (GET /api/documents/:id/download, GET /api/admin/documents/:id/download) differ only in the
// transfer procedure that finds the row and decides who may have it.
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { TRPCError } from "@trpc/server";
import type { RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { createTransferCaller } from "../routers/_app.ts";
import type { StoredDocument } from "../routers/documents/queries.ts";
import { DOCUMENT_NOT_FOUND } from "../routers/documents/service.ts";
import { ObjectNotFoundError, type ObjectStorage } from "../storage/storage.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

type TransferCaller = ReturnType<typeof createTransferCaller>;

/** A download route: `find` asks a transfer procedure for the document the path's id names. */
export function downloadRoute(find: (transfers: TransferCaller, id: string) => Promise<StoredDocument>) {
  return (deps: AppDeps): RequestHandler =>
    async (req, res) => {
      try {
        const document = await find(createTransferCaller(createRequestContext(deps, req, res)), String(req.params.id));
        await sendStoredDocument(res, deps.storage, deps.logger, document);
      } catch (err) {
        const { status, detail } = toHttpError(err, deps.logger);
        if (!res.headersSent) res.status(status).json({ detail });
      }
    };
}

/**
 * `attachment` with the original name twice: an ASCII-only `filename` for old clients and the exact
 * name UTF-8 percent-encoded in `filename*` (RFC 6266 and RFC 5987), which browsers prefer.
 */
export function attachmentDisposition(filename: string): string {
  const asciiFallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends the object of a document row: never rendered by the browser (attachment, nosniff, a sandbox
 * CSP), never cached, never recompressed (so Content-Length holds). Rejects, before any header is
 * sent, when the object cannot be opened (NOT_FOUND when it is gone); a failure after that only cuts
 * the response short.
 */
async function sendStoredDocument(res: Response, storage: ObjectStorage, logger: Logger, document: StoredDocument): Promise<void> {
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
