// Streams a ZIP of one of the caller's folders, or of everything they have (GET
// /api/folders/:id/download, /api/folders/root/download), built while it is sent: entries are
// stored, not recompressed (PDFs and photos do not shrink), and read from storage one at a time, so
// memory stays flat whatever the folder holds and only one storage connection is open. The transfer
// procedure (documents.zipPlan) decides who may have what and names the entries.
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RequestHandler, Response } from "express";
import type { Logger } from "pino";
import ZipStream, { type FileDataInput } from "zip-stream";
import { createTransferCaller } from "../domains/_app.ts";
import type { ArchivePlan } from "../domains/documents/archive.ts";
import { ObjectIntegrityError } from "../storage/object-encryption.ts";
import type { ObjectStorage } from "../storage/storage.ts";
import type { AppDeps } from "../trpc/context.ts";
import { setFileHeaders } from "./download.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

type TransferCaller = ReturnType<typeof createTransferCaller>;

/** A ZIP route: `plan` asks the transfer procedure for the entries of the folder the path names. */
export function folderArchiveRoute(plan: (transfers: TransferCaller, params: Record<string, string>) => Promise<ArchivePlan>) {
  return (deps: AppDeps): RequestHandler =>
    async (req, res) => {
      let archive: ArchivePlan;
      try {
        archive = await plan(createTransferCaller(createRequestContext(deps, req, res)), req.params as Record<string, string>);
      } catch (err) {
        const { status, detail } = toHttpError(err, deps.logger);
        if (!res.headersSent) res.status(status).json({ detail });
        return;
      }
      await sendArchive(res, deps.storage, deps.logger, archive);
    };
}

/**
 * Once the 200 and the first bytes are out, a failure can only cut the response: it is destroyed
 * (the client sees a broken download), never ended as if complete. A client that goes away stops
 * the work at once: the entry being read is abandoned and its storage stream destroyed.
 */
export async function sendArchive(res: Response, storage: ObjectStorage, logger: Logger, archive: ArchivePlan): Promise<void> {
  const zip = new ZipStream({ store: true });
  const stop = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) stop.abort(new Error("the client went away"));
  };
  res.on("close", onClose);
  res.status(200);
  setFileHeaders(res, { contentType: "application/zip", filename: archive.filename, presentation: "attachment" });
  // When the response breaks, pipeline destroys the ZIP stream; the loop below must stop too.
  const sent = pipeline(zip, res).catch((err: unknown) => stop.abort(err));
  let source: Readable | null = null;
  try {
    for (const entry of archive.entries) {
      stop.signal.throwIfAborted();
      if (entry.content !== undefined) {
        await appendEntry(zip, Buffer.from(entry.content, "utf8"), { name: entry.path, date: entry.date }, stop.signal);
        continue;
      }
      if (entry.storage_key === null) {
        await appendEntry(zip, null, { name: entry.path, type: "directory", date: entry.date }, stop.signal);
        continue;
      }
      source = await storage.get(entry.storage_key);
      await appendEntry(zip, source, { name: entry.path, date: entry.date, store: true }, stop.signal);
      source = null;
    }
    zip.finalize();
    await sent;
  } catch (err) {
    source?.destroy();
    zip.destroy();
    if (!res.destroyed) {
      if (err instanceof ObjectIntegrityError)
        logger.error({ err, storage_key: err.key }, "ZIP download cut: a stored file fails its integrity check");
      else logger.warn({ err }, "ZIP download cut short");
      res.destroy(err instanceof Error ? err : undefined);
    }
  } finally {
    res.off("close", onClose);
  }
}

/** Adds one entry and waits until it is written; rejects when the source fails or `signal` aborts. */
function appendEntry(zip: ZipStream, source: Readable | Buffer | null, data: FileDataInput, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: unknown) => {
      signal.removeEventListener("abort", onAbort);
      if (!Buffer.isBuffer(source)) source?.off("error", settle);
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => settle(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    if (!Buffer.isBuffer(source)) source?.once("error", settle);
    zip.entry(source, data, (err) => settle(err ?? undefined));
  });
}
