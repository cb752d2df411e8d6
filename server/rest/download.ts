// Streams a stored document to the browser, as a download or (for the types a browser shows safely)
// as a preview: the owner's routes and the admin's (GET /api/documents/:id/download and /preview,
// GET /api/admin/documents/:id/download and /preview) differ only in the transfer procedure that
// finds the row and decides who may have it, and in how the browser is told to present it.
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { TRPCError } from "@trpc/server";
import type { RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { createTransferCaller } from "../domains/_app.ts";
import type { StoredDocument } from "../domains/documents/queries.ts";
import { DOCUMENT_NOT_FOUND } from "../domains/documents/service.ts";
import { ObjectIntegrityError } from "../storage/object-encryption.ts";
import { ObjectNotFoundError, type ObjectStorage } from "../storage/storage.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

type TransferCaller = ReturnType<typeof createTransferCaller>;
type FindDocument = (transfers: TransferCaller, id: string) => Promise<StoredDocument>;

/** How the browser is to present the file: save it, or show it. */
type Presentation = "attachment" | "inline";

/**
 * What a preview may do once the browser shows it: nothing but be seen. `sandbox` gives the response
 * an opaque origin with scripts, forms and popups off; the fetch directives allow only the file
 * itself (an image, a PDF in the browser's viewer, text) and the inline styles of the browser's own
 * image and text views; only our own pages may frame it (the portal's viewer does).
 */
export const PREVIEW_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'";

/** A download route: `find` asks a transfer procedure for the document the path's id names. */
export function downloadRoute(find: FindDocument) {
  return storedDocumentRoute(find, "attachment");
}

/** A preview route: as a download, but shown in the browser (the transfer procedure refuses other types with 415). */
export function previewRoute(find: FindDocument) {
  return storedDocumentRoute(find, "inline");
}

function storedDocumentRoute(find: FindDocument, presentation: Presentation) {
  return (deps: AppDeps): RequestHandler =>
    async (req, res) => {
      try {
        const document = await find(createTransferCaller(createRequestContext(deps, req, res)), String(req.params.id));
        await sendStoredDocument(res, deps.storage, deps.logger, document, presentation);
      } catch (err) {
        const { status, detail } = toHttpError(err, deps.logger);
        if (!res.headersSent) res.status(status).json({ detail });
      }
    };
}

/**
 * `attachment` (or `inline`) with the original name twice: an ASCII-only `filename` for old clients
 * and the exact name UTF-8 percent-encoded in `filename*` (RFC 6266 and RFC 5987), which browsers prefer.
 */
export function attachmentDisposition(filename: string, presentation: Presentation = "attachment"): string {
  const asciiFallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${presentation}; filename="${asciiFallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers of every file we send: its type, how to present it under which name, never sniffed into
 * another type, never cached or recompressed; a download runs nothing (a bare sandbox), a preview
 * only shows itself (PREVIEW_CSP).
 */
export function setFileHeaders(res: Response, file: { contentType: string; filename: string; presentation: Presentation }): void {
  res.setHeader("Content-Type", file.contentType);
  res.setHeader("Content-Disposition", attachmentDisposition(file.filename, file.presentation));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", file.presentation === "inline" ? PREVIEW_CSP : "sandbox");
  res.setHeader("Cache-Control", "private, no-store, no-transform");
}

/**
 * Sends the object of a document row, never cached, never recompressed (so Content-Length holds),
 * never sniffed into another type. A download is never rendered (attachment, a bare sandbox CSP); a
 * preview is rendered as its stored type only, under PREVIEW_CSP, text as UTF-8. Rejects, before any
 * header is sent, when the object cannot be opened (NOT_FOUND when it is gone); a failure after that
 * only cuts the response short.
 */
async function sendStoredDocument(
  res: Response,
  storage: ObjectStorage,
  logger: Logger,
  document: StoredDocument,
  presentation: Presentation,
): Promise<void> {
  const body = await openStoredObject(storage, logger, document);
  const inline = presentation === "inline";
  res.status(200);
  res.setHeader("Content-Length", String(document.file_size));
  setFileHeaders(res, {
    contentType: inline && document.content_type === "text/plain" ? "text/plain; charset=utf-8" : document.content_type,
    filename: document.original_filename,
    presentation,
  });
  try {
    await pipeline(body, res);
  } catch (err) {
    if (err instanceof ObjectIntegrityError)
      logger.error({ err, storage_key: document.storage_key }, "download cut: the stored file fails its integrity check");
    else if (!res.writableEnded && !res.destroyed) logger.warn({ err, storage_key: document.storage_key }, "download cut short");
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
