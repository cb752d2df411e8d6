// What an uploaded file is, decided by its bytes (never by its name or declared type), and the
// form it is kept in: pictures are decoded and written again by sharp as WebP within a size fit
// for their place, which also leaves their metadata (camera, GPS position) behind; a video is
// kept as sent once its first bytes say MP4 or WebM; captions once they read as WebVTT text.
import { createHash } from "node:crypto";
import { TRPCError } from "@trpc/server";
import sharp from "sharp";
import { type ImageSlot, MEDIA_MESSAGES } from "./schemas.ts";

/**
 * The box each picture is fitted into: a little over twice the CSS size it is shown at (the logo
 * 32 px, the hero picture at most 560 px, the about picture 480 px), so it is sharp on a phone's
 * screen without sending a phone more than it can show; the hero picture is often the page's
 * largest paint.
 */
const IMAGE_BOX: Record<ImageSlot, { width: number; height: number }> = {
  logo: { width: 256, height: 256 },
  hero: { width: 1200, height: 1200 },
  about: { width: 1000, height: 1000 },
};
/** Past this, decoding alone would hold hundreds of megabytes (a small file can declare huge dimensions). */
const MAX_INPUT_PIXELS = 50_000_000;
const ACCEPTED_IMAGE_FORMATS = new Set(["png", "jpeg", "webp"]);

export type PreparedImage = { bytes: Buffer; name: string; width: number; height: number };

const unsupported = (message: string) => new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message });

/** The first 32 hex digits of the content's SHA-256: the file's public name changes with its content. */
export const contentName = (slot: string, sha256Hex: string, extension: string) => `${slot}-${sha256Hex.slice(0, 32)}.${extension}`;

export async function prepareImage(slot: ImageSlot, input: Buffer): Promise<PreparedImage> {
  let format: string | undefined;
  let pixels: number;
  try {
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    throw unsupported(MEDIA_MESSAGES.imageUnreadable);
  }
  if (!format || !ACCEPTED_IMAGE_FORMATS.has(format)) throw unsupported(MEDIA_MESSAGES.image);
  if (pixels > MAX_INPUT_PIXELS) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: MEDIA_MESSAGES.imageTooManyPixels });
  const box = IMAGE_BOX[slot];
  let output: { data: Buffer; info: sharp.OutputInfo };
  try {
    output = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      // Turned as the camera meant before the orientation tag goes with the rest of the metadata.
      .rotate()
      .resize({ width: box.width, height: box.height, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80, effort: 4 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw unsupported(MEDIA_MESSAGES.imageUnreadable);
  }
  const sha256 = createHash("sha256").update(output.data).digest("hex");
  return { bytes: output.data, name: contentName(slot, sha256, "webp"), width: output.info.width, height: output.info.height };
}

/** MP4 (an ISO media file: "ftyp" at byte 4) or WebM (an EBML header); null for anything else. */
export function sniffVideo(head: Buffer): { contentType: "video/mp4" | "video/webm"; extension: "mp4" | "webm" } | null {
  if (head.length >= 12 && head.subarray(4, 8).toString("latin1") === "ftyp") return { contentType: "video/mp4", extension: "mp4" };
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { contentType: "video/webm", extension: "webm" };
  return null;
}

/** Bytes a video must have before sniffVideo can tell. */
export const VIDEO_HEAD_BYTES = 12;

/** WebVTT: UTF-8 text whose first line is "WEBVTT", alone or followed by a space or tab (a BOM may precede it). */
export function checkCaptions(input: Buffer): Buffer {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(input);
  } catch {
    throw unsupported(MEDIA_MESSAGES.captions);
  }
  if (!/^WEBVTT(?:[ \t][^\r\n]*)?(?:\r\n|\r|\n|$)/.test(text)) throw unsupported(MEDIA_MESSAGES.captions);
  return input;
}
