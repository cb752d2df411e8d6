// The firm's uploads of its logo, pictures, welcome video and captions (POST
// /api/admin/site-media/:slot), and the public files they become (GET /media/:name). A picture or
// captions file is small and read whole (at most 10 MB) before it is checked and stored; a video
// (up to 200 MB) goes to storage as it arrives, its first bytes checked on the way, never held in
// memory. A refused upload leaves nothing stored. The public files are named by their content,
// so they are cached for a year; a video is served in byte ranges, as players ask for it.
import { createHash, randomUUID } from "node:crypto";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy, { type Busboy } from "busboy";
import { TRPCError } from "@trpc/server";
import type { Request, RequestHandler } from "express";
import { z } from "zod";
import { createTransferCaller } from "../domains/_app.ts";
import { checkCaptions, contentName, prepareImage, sniffVideo, VIDEO_HEAD_BYTES } from "../domains/site-media/files.ts";
import {
  MAX_IMAGE_BYTES,
  type MediaSlot,
  MEDIA_MESSAGES,
  type SiteMediaItem,
  siteMediaItemOutput,
  confirmTestimonialInput,
  siteMediaViewOutput,
  siteOptionsInput,
  tooLargeMessage,
} from "../domains/site-media/schemas.ts";
import { findPublicMediaFile } from "../domains/site-media/service.ts";
import { successOutput } from "../domains/shared-schemas.ts";
import type { ObjectStorage } from "../storage/storage.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";
import { procedureRoute, type RestRoute } from "./route.ts";
import { DISCARD_TIMEOUT_MS, discardRest, meterBody } from "./upload.ts";

const FILE_FIELD = "file";
/** Room for the part headers and a few small fields around the file. */
const MULTIPART_OVERHEAD_BYTES = 32 * 1024;

const badRequest = (message: string) => new TRPCError({ code: "BAD_REQUEST", message });

export const siteMediaRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/site-media",
    summary: "The firm's uploaded pictures and video, and the public site's switches",
    tag: "admin",
    access: "admin",
    response: siteMediaViewOutput,
    call: (c) => c.admin.siteMedia.get(),
  }),
  {
    method: "post",
    path: "/admin/site-media/:slot",
    summary:
      "Upload the logo, hero or about picture (PNG, JPEG or WebP, at most 10 MB; stored as WebP), the welcome video (MP4 or WebM, at most 200 MB) or its captions (WebVTT, at most 512 KB) in the form field file",
    tag: "admin",
    access: "admin",
    body: { multipart: z.object({ file: z.string().describe("The file") }) },
    response: siteMediaItemOutput,
    status: 201,
    handler: siteMediaUploadRoute,
  },
  procedureRoute({
    method: "delete",
    path: "/admin/site-media/:slot",
    summary: "Remove an uploaded file: the site shows its default again (no video: the simulated playback)",
    tag: "admin",
    access: "admin",
    response: successOutput,
    call: (c, r) => c.admin.siteMedia.remove({ slot: r.params.slot }),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/site-options",
    summary: "Turn the welcome modal or the testimonials section on or off",
    tag: "admin",
    access: "admin",
    body: siteOptionsInput,
    response: siteMediaViewOutput,
    call: (c, r) => c.admin.siteMedia.updateOptions(r.body),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/testimonials/confirm",
    summary: "Confirm one sample testimonial (by its index in the editor's list) as the firm's to publish",
    tag: "admin",
    access: "admin",
    body: confirmTestimonialInput,
    response: siteMediaViewOutput,
    call: (c, r) => c.admin.siteMedia.confirmTestimonials(r.body),
  }),
];

type Received =
  | { kind: "buffer"; bytes: Buffer; filename: string }
  | { kind: "stored"; key: string; size: number; sha256: string; contentType: "video/mp4" | "video/webm"; extension: string; filename: string };

export function siteMediaUploadRoute(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    const transfers = createTransferCaller(createRequestContext(deps, req, res)).siteMedia;
    const received = meterBody(req);
    const declaredLength = Number(req.headers["content-length"]);
    // Until the caller is known to be the firm, a refused body is read to the pictures' limit at most.
    let maxBody = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES;
    let storedKey: string | null = null;
    try {
      const slot = String(req.params.slot) as MediaSlot;
      // The firm only (adminProcedure), a known slot, before a single byte of the body is read.
      const { maxBytes } = await transfers.prepareUpload({ slot });
      maxBody = maxBytes + MULTIPART_OVERHEAD_BYTES;
      if (declaredLength > maxBody) throw new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: tooLargeMessage(slot) });
      const file = await receiveFile(req, deps.storage, slot, maxBytes);
      let record: Parameters<typeof transfers.recordUpload>[0];
      if (file.kind === "stored") {
        storedKey = file.key;
        record = {
          slot,
          name: contentName(slot, file.sha256, file.extension),
          storage_key: file.key,
          content_type: file.contentType,
          byte_size: file.size,
          width: null,
          height: null,
          original_filename: file.filename.slice(0, 255),
        };
      } else {
        const kept =
          slot === "captions"
            ? { bytes: checkCaptions(file.bytes), name: contentName(slot, sha256Of(file.bytes), "vtt"), width: null, height: null }
            : await prepareImage(slot as "logo" | "hero" | "about", file.bytes);
        const key = randomUUID();
        await deps.storage.put(key, Readable.from([kept.bytes]));
        storedKey = key;
        record = {
          slot,
          name: kept.name,
          storage_key: key,
          content_type: slot === "captions" ? "text/vtt" : "image/webp",
          byte_size: kept.bytes.length,
          width: kept.width,
          height: kept.height,
          original_filename: file.filename.slice(0, 255),
        };
      }
      const item: SiteMediaItem = await transfers.recordUpload(record);
      storedKey = null;
      res.status(201).json(item);
    } catch (err) {
      if (storedKey)
        await deps.storage
          .delete(storedKey)
          .catch((e: unknown) => deps.logger.warn({ err: e, storage_key: storedKey }, "refused upload not removed"));
      const { status, detail } = toHttpError(err, deps.logger);
      if (res.headersSent) return;
      // A client still sending would meet a closed connection before it read the answer.
      const discarded = !(declaredLength > maxBody) && (await discardRest(req, received, DISCARD_TIMEOUT_MS, maxBody));
      if (res.headersSent || res.destroyed) return;
      if (!discarded) res.setHeader("Connection", "close");
      res.status(status).json({ detail });
    }
  };
}

const sha256Of = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * Reads the one file part `file`: a video into storage under a new key (checked by its first
 * bytes on the way), anything else into memory. Settles only once storage has, and when it
 * rejects nothing of this request is left stored.
 */
function receiveFile(req: Request, storage: ObjectStorage, slot: MediaSlot, maxBytes: number): Promise<Received> {
  const tooLarge = () => new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: tooLargeMessage(slot) });
  return new Promise((resolve, reject) => {
    let parser: Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        // One byte past the limit, so a file of exactly the limit is told apart from a larger one.
        limits: { files: 1, fileSize: maxBytes + 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 20 },
      });
    } catch {
      reject(badRequest(`Send the file as multipart/form-data in the field "${FILE_FIELD}"`));
      return;
    }
    let work: Promise<Received> | null = null;
    let refusal: unknown = null;
    let finished = false;

    const finish = () => {
      if (finished) return;
      finished = true;
      req.unpipe(parser);
      if (!work) {
        reject(refusal ?? badRequest("No file was uploaded"));
        return;
      }
      work.then(
        async (file) => {
          if (!refusal) return resolve(file);
          if (file.kind === "stored") await storage.delete(file.key).catch(() => undefined);
          reject(refusal);
        },
        (err: unknown) => reject(refusal ?? err),
      );
    };
    const refuse = (err: unknown) => {
      refusal ??= err;
    };

    parser.on("file", (name, stream, info) => {
      if (work || name !== FILE_FIELD || !info.filename) {
        stream.resume();
        refuse(badRequest(name !== FILE_FIELD ? `Send the file in the field "${FILE_FIELD}"` : "No file was uploaded"));
        return;
      }
      work = slot === "video" ? storeVideo(stream, storage, info.filename, tooLarge) : readSmallFile(stream, info.filename, tooLarge);
      // Reported by finish(); this keeps an early rejection from counting as unhandled meanwhile.
      work.catch(() => undefined);
    });
    parser.on("field", (name, _value, info) => {
      if (info.nameTruncated || info.valueTruncated) refuse(badRequest(`The form field "${name}" is too long`));
    });
    parser.on("filesLimit", () => refuse(badRequest("Upload exactly one file per request")));
    parser.on("fieldsLimit", () => refuse(badRequest("Too many form fields")));
    parser.on("partsLimit", () => refuse(badRequest("Too many form fields")));
    parser.on("error", () => {
      refuse(badRequest("The upload is not a well-formed multipart form"));
      finish();
    });
    parser.on("close", finish);
    req.pipe(parser);
    req.resume();
  });
}

function readSmallFile(stream: Readable, filename: string, tooLarge: () => TRPCError): Promise<Received> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let over = false;
    stream.on("data", (chunk: Buffer) => {
      if (!over) chunks.push(chunk);
    });
    stream.on("limit", () => {
      over = true;
      chunks.length = 0;
    });
    stream.on("error", reject);
    stream.on("end", () => (over ? reject(tooLarge()) : resolve({ kind: "buffer", bytes: Buffer.concat(chunks), filename })));
  });
}

async function storeVideo(stream: Readable, storage: ObjectStorage, filename: string, tooLarge: () => TRPCError): Promise<Received> {
  const key = randomUUID();
  const hash = createHash("sha256");
  let size = 0;
  let head = Buffer.alloc(0);
  let kind: ReturnType<typeof sniffVideo> = null;
  let failure: unknown = null;
  const checker = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      hash.update(chunk);
      if (!kind) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= VIDEO_HEAD_BYTES) {
          kind = sniffVideo(head);
          if (!kind) return callback((failure = new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: MEDIA_MESSAGES.video })));
        }
      }
      callback(null, chunk);
    },
    flush(callback) {
      kind ??= sniffVideo(head);
      callback(kind ? null : (failure = new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: MEDIA_MESSAGES.video })));
    },
  });
  // busboy truncates at its limit rather than failing: stop right there instead.
  stream.on("limit", () => checker.destroy((failure = tooLarge())));
  stream.on("error", (err) => checker.destroy(err));
  stream.pipe(checker);
  try {
    await storage.put(key, checker);
  } catch (err) {
    stream.resume();
    await storage.delete(key).catch(() => undefined);
    throw failure ?? err;
  }
  if (failure) {
    await storage.delete(key).catch(() => undefined);
    throw failure;
  }
  // Assigned in the stream's callbacks, which TypeScript does not follow.
  const sniffed = kind as unknown as NonNullable<ReturnType<typeof sniffVideo>>;
  return { kind: "stored", key, size, sha256: hash.digest("hex"), contentType: sniffed.contentType, extension: sniffed.extension, filename };
}

/**
 * GET (and HEAD) /media/:name: a public file of the site, cached for a year (its name changes with
 * its content), never sniffed into another type; one byte range when asked (206), 416 when the
 * range lies past the end. Several ranges at once are answered with the whole file, as HTTP allows.
 */
export function siteMediaFileRoute(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const file = await findPublicMediaFile(deps, { name: String(req.params.name) });
      const size = file.byte_size;
      const etag = `"${file.name}"`;
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Accept-Ranges", "bytes");
      const range = parseRange(req.headers.range, size);
      if (range === "unsatisfiable") {
        res.setHeader("Content-Range", `bytes */${size}`);
        res.setHeader("Cache-Control", "no-store");
        res.status(416).json({ detail: `The range lies outside the file (${size} bytes)` });
        return;
      }
      res.setHeader("Content-Type", file.content_type === "text/vtt" ? "text/vtt; charset=utf-8" : file.content_type);
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("ETag", etag);
      if (!range && req.headers["if-none-match"] === etag) {
        res.status(304).end();
        return;
      }
      if (range) {
        res.status(206);
        res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
        res.setHeader("Content-Length", String(range.end - range.start + 1));
      } else {
        res.status(200);
        res.setHeader("Content-Length", String(size));
      }
      if (req.method === "HEAD" || size === 0) {
        res.end();
        return;
      }
      const body = await deps.storage.get(file.storage_key, range ?? undefined);
      try {
        await pipeline(body, res);
      } catch (err) {
        if (!res.writableEnded && !res.destroyed) deps.logger.warn({ err, name: file.name }, "media file cut short");
        res.destroy();
      }
    } catch (err) {
      const { status, detail } = toHttpError(err, deps.logger);
      if (res.headersSent) return;
      res.setHeader("Cache-Control", "no-store");
      res.status(status).json({ detail });
    }
  };
}

/** One `bytes=` range within `size` bytes; null when there is none to honour (absent, malformed, several). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
