// POST /api/documents/upload (and the firm's POST /api/admin/users/:id/documents into a client's
// documents, through the same code): the multipart body is read with busboy and the file part goes
// straight to storage while it is hashed and counted, so memory does not grow with the file. Only
// once the content is safely stored is the row written (documents/upload.ts createDocument); any
// failure on the way (too large, a second file, a client that goes away) removes what was stored.
// A client's documents together stay within their storage quota: the body is refused as soon as
// it would pass what is left, and createDocument checks again, exactly, before the row is written.
// A folder, request or organizer named before the file part is checked before the file is stored.
// A refusal is always answered: the rest of a refused body of at most the upload limit is read and
// discarded first (for a while at most), so the client, still sending, reads the status and detail
// instead of a broken connection; only a body past the limit is cut (decisions.md, "The specification's contract again (issue 29)").
import { createHash, randomUUID } from "node:crypto";
import { pipeline, Transform } from "node:stream";
import busboy, { type Busboy } from "busboy";
import { TRPCError } from "@trpc/server";
import type { Request, RequestHandler } from "express";
import type { Logger } from "pino";
import { createTransferCaller } from "../domains/_app.ts";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES, STORAGE_QUOTA_EXCEEDED, uploadFieldsInput } from "../domains/documents/schemas.ts";
import type { ReceivedFile } from "../domains/documents/upload.ts";
import { removeStoredObjects } from "../storage/remove-stored-objects.ts";
import type { ObjectStorage } from "../storage/storage.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

const FILE_FIELD = "file";
const MAX_FIELDS = 10;
const MAX_FIELD_BYTES = 1024;
/** Room for part headers and the small fields around a file of the maximum size. */
const MULTIPART_OVERHEAD_BYTES = MAX_FIELDS * (MAX_FIELD_BYTES + 1024) + 16 * 1024;
/** The largest body an upload may have: what is left of a refused one is read up to this. */
const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES;
/** How long the rest of a refused body may take to arrive before the connection is closed instead. */
export const DISCARD_TIMEOUT_MS = 30_000;

const ONE_FILE = "Upload exactly one file per request";
const NO_FILE = "No file was uploaded";

const badRequest = (message: string) => new TRPCError({ code: "BAD_REQUEST", message });

type TransferCaller = ReturnType<typeof createTransferCaller>;
/** Whose documents an upload goes into: the caller's own (the default), or, for the firm, the client the path names. */
export type UploadTarget = (
  transfers: TransferCaller,
  params: Record<string, string>,
) => Pick<TransferCaller["documents"], "prepareUpload" | "checkUploadPlace" | "recordUpload">;
const ownDocuments: UploadTarget = (transfers) => transfers.documents;

export function uploadRoute(deps: AppDeps, target: UploadTarget = ownDocuments): RequestHandler {
  return async (req, res) => {
    const caller = target(createTransferCaller(createRequestContext(deps, req, res)), req.params as Record<string, string>);
    const received = meterBody(req);
    const declaredLength = Number(req.headers["content-length"]);
    try {
      // Signed in (authedProcedure), within the hourly limit, before a single byte of the body is read.
      const { remainingBytes } = await caller.prepareUpload();
      if (declaredLength > MAX_BODY_BYTES) {
        throw new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: FILE_TOO_LARGE });
      }
      if (declaredLength > remainingBytes + MULTIPART_OVERHEAD_BYTES) {
        throw new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: STORAGE_QUOTA_EXCEEDED });
      }
      const { fields, file } = await receiveUpload(req, deps.storage, deps.logger, remainingBytes, (place) => caller.checkUploadPlace(place));
      const document = await caller.recordUpload({
        folder_id: fields.folder_id,
        request_id: fields.request_id,
        request_item_id: fields.request_item_id,
        organizer_id: fields.organizer_id,
        question_id: fields.question_id,
        for_signature: fields.for_signature,
        file,
      });
      res.status(201).json(document);
    } catch (err) {
      const { status, detail } = toHttpError(err, deps.logger);
      if (res.headersSent) return;
      // A client still sending would meet a closed connection (EPIPE) before it read the answer.
      const discarded = !(declaredLength > MAX_BODY_BYTES) && (await discardRest(req, received, DISCARD_TIMEOUT_MS));
      if (res.headersSent || res.destroyed) return;
      if (!discarded) res.setHeader("Connection", "close");
      res.status(status).json({ detail });
    }
  };
}

/**
 * Counts the body's bytes whoever reads them (busboy, then discardRest). The request is paused
 * first, explicitly, so the listener does not start the flow before busboy is piped.
 */
export function meterBody(req: Request): { bytes: number } {
  const meter = { bytes: 0 };
  req.pause();
  req.on("data", (chunk: Buffer) => {
    meter.bytes += chunk.length;
  });
  return meter;
}

/**
 * Reads and discards what is left of a refused body; true once it has all arrived, false (the
 * connection should close) when it passes `maxBytes` (by default the upload limit), takes longer
 * than `timeoutMs`, or the client went away.
 */
export function discardRest(req: Request, received: { bytes: number }, timeoutMs: number, maxBytes = MAX_BODY_BYTES): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (req.destroyed || received.bytes > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (discarded: boolean) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      if (!discarded) req.pause();
      resolve(discarded);
    };
    const onData = () => {
      if (received.bytes > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), timeoutMs);
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
    req.resume();
  });
}

type ReceivedUpload = {
  fields: {
    folder_id: string | null;
    request_id: string | null;
    request_item_id: string | null;
    organizer_id: string | null;
    question_id: string | null;
    for_signature: boolean;
  };
  file: ReceivedFile;
};

/**
 * Reads one multipart request: exactly one file part named `file` (stored under a new random key)
 * and at most a few small fields, the file no larger than 10 MB nor than `remainingQuota` bytes.
 * Settles only after storage has settled, so when it rejects nothing of this request is left in
 * storage.
 */
function receiveUpload(
  req: Request,
  storage: ObjectStorage,
  logger: Logger,
  remainingQuota: number,
  checkPlace: (place: ReceivedUpload["fields"]) => Promise<unknown>,
): Promise<ReceivedUpload> {
  const quotaIsTheLimit = remainingQuota < MAX_UPLOAD_BYTES;
  const maxFileBytes = quotaIsTheLimit ? remainingQuota : MAX_UPLOAD_BYTES;
  const overLimit = () => new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: quotaIsTheLimit ? STORAGE_QUOTA_EXCEEDED : FILE_TOO_LARGE });
  return new Promise((resolve, reject) => {
    let parser: Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        limits: {
          files: 1,
          // busboy reports its limit on reaching it, so allow one byte more to tell "exactly 10 MB"
          // (or exactly what is left of the quota) apart.
          fileSize: maxFileBytes + 1,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: MAX_FIELDS + 1,
          headerPairs: 20,
        },
      });
    } catch {
      reject(badRequest(`Send the file as multipart/form-data in the field "${FILE_FIELD}"`));
      return;
    }

    const fields: Record<string, string> = {};
    let storing: { key: string; done: Promise<ReceivedFile>; body: Transform } | null = null;
    let settled = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      if (!storing) {
        reject(error);
        return;
      }
      const { key, done, body } = storing;
      body.destroy();
      void done
        .catch(() => undefined)
        .then(() => removeStoredObjects(storage, logger, [{ storage_key: key }]))
        .finally(() => reject(error));
    };

    parser.on("file", (name, stream, info) => {
      // Unpiping does not stop busboy from parsing what it already holds: a file part after a
      // refusal would be stored with nobody left to record or remove it.
      if (settled) {
        stream.resume();
        return;
      }
      const { filename, mimeType } = info;
      if (name !== FILE_FIELD || !filename) {
        stream.resume();
        fail(badRequest(name !== FILE_FIELD ? `Send the file in the field "${FILE_FIELD}"` : NO_FILE));
        return;
      }
      const hash = createHash("sha256");
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      // busboy does not fail at its size limit, it truncates: stop right there instead.
      stream.on("limit", () => fail(overLimit()));
      const body = pipeline(stream, counter, (err) => {
        if (err) fail(err);
      });
      const key = randomUUID();
      // A folder or request named before the file is checked before anything is stored; until
      // then the file waits in the pipeline, which holds the body back. Fields that do not parse
      // are left to the check after the body, which says what is wrong with them.
      const place = uploadFieldsInput.safeParse(fields);
      const store = () => storage.put(key, body);
      const stored =
        place.success && (place.data.folder_id || place.data.request_id || place.data.organizer_id)
          ? checkPlace(place.data).then(() => {
              // Refused meanwhile (a small body can be parsed to its end while the check runs).
              if (settled) throw new Error("upload refused");
              return store();
            })
          : store();
      const done = stored.then((): ReceivedFile => ({
        key,
        size,
        sha256: hash.digest("hex"),
        filename,
        declaredType: mimeType,
      }));
      storing = { key, done, body };
      done.catch(fail);
    });
    parser.on("field", (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) fail(badRequest(`The form field "${name}" is too long`));
      else fields[name] = value;
    });
    parser.on("filesLimit", () => fail(badRequest(ONE_FILE)));
    parser.on("fieldsLimit", () => fail(badRequest("Too many form fields")));
    parser.on("partsLimit", () => fail(badRequest("Too many form fields")));
    parser.on("error", () => fail(badRequest("The upload is not a well-formed multipart form")));
    parser.on("close", () => {
      if (settled) return;
      if (!storing) {
        fail(badRequest(NO_FILE));
        return;
      }
      const parsedFields = uploadFieldsInput.safeParse(fields);
      if (!parsedFields.success) {
        fail(parsedFields.error);
        return;
      }
      storing.done.then((file) => {
        if (settled) return;
        settled = true;
        resolve({ fields: parsedFields.data, file });
      }, fail);
    });
    req.on("error", fail);
    req.on("close", () => {
      if (!req.complete) fail(new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: "The upload was interrupted" }));
    });
    req.pipe(parser);
  });
}
