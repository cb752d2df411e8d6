// Sealing a completed request (docs/decisions.md, "Signatures"): the values and signatures are
// drawn into the PDF (@cantoo/pdf-lib), a certificate page is appended, and the file is signed
// with PKCS#7 detached (adbe.pkcs7.detached, with a signing time) by @signpdf, so a PDF reader shows
// it unaltered and flags any change. The signature placeholder is written here with @cantoo/pdf-lib's
// own objects: @signpdf/placeholder-pdf-lib takes the unmaintained `pdf-lib`'s, which cannot be
// mixed with these.
import { createHash } from "node:crypto";
import type * as PdfLib from "@cantoo/pdf-lib";
import type { Color, PDFDocument, PDFFont, PDFPage } from "@cantoo/pdf-lib";
import { SignPdf } from "@signpdf/signpdf";
import { P12Signer } from "@signpdf/signer-p12";
import { ANNOTATION_FLAGS, DEFAULT_BYTE_RANGE_PLACEHOLDER, SIG_FLAGS, SUBFILTER_ADOBE_PKCS7_DETACHED } from "@signpdf/utils";
import Bowser from "bowser";
import { embedPdfFonts, printableText } from "../../pdf-fonts.ts";
import type { SealingIdentity } from "./certificate.ts";

/** @cantoo/pdf-lib, loaded at the first PDF read or written, not with the app: a second of every start and every test process's import (docs/performance.md, "The test suite's time"). */
const pdfLib = () => import("@cantoo/pdf-lib");

/** Room for the PKCS#7 signature (bytes): a certificate chain of a few certificates fits. */
const SIGNATURE_LENGTH = 16_384;

export type SealField = { signer: number; type: string; page: number; x: number; y: number; width: number; height: number; value: string | null };

export type SealSigner = {
  index: number;
  name: string;
  email: string;
  identity: string;
  consent: string;
  ip: string | null;
  userAgent: string | null;
  viewedAt: Date | null;
  signedAt: Date | null;
  signature: { type: "typed"; text: string } | { type: "drawn"; image: string } | null;
};

export type SealInput = {
  request: { id: string; title: string; kind: string; account: string; created: Date; completed: Date };
  originalSha256: string;
  fields: SealField[];
  signers: SealSigner[];
  firmName: string;
  publicUrl: string;
};

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** How many pages a PDF has (to check the fields' pages when a request is made); null when it does not open. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number | null> {
  const { PDFDocument } = await pdfLib();
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: false, updateMetadata: false });
    return doc.getPageCount();
  } catch {
    return null;
  }
}

/** A drawn signature's largest side in pixels (a phone's canvas at 3x is well within it). */
const MAX_DRAWING_SIDE = 2400;

/** Whether a drawn signature's data URL holds a PNG the seal can draw (checked when it is given, not at the seal). */
export async function isDrawablePng(dataUrl: string): Promise<boolean> {
  const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
  // The size is read from the header first: a small file may inflate to a huge bitmap.
  if (png.length < 24 || png.toString("latin1", 12, 16) !== "IHDR") return false;
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  if (width === 0 || height === 0 || width > MAX_DRAWING_SIDE || height > MAX_DRAWING_SIDE) return false;
  const { PDFDocument } = await pdfLib();
  try {
    const doc = await PDFDocument.create();
    await doc.embedPng(png);
    return true;
  } catch {
    return false;
  }
}

/** Characters the font has no glyph for (server/pdf-fonts.ts) become "?"; line breaks and tabs, spaces. */
function writable(font: PDFFont, text: string): string {
  return printableText(font, text.replace(/[\r\n\t]+/g, " "));
}

/** Text at most `maxWidth` wide at `size`, cut with an ellipsis. */
function fit(font: PDFFont, text: string, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(text, size) <= maxWidth) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > maxWidth) cut = cut.slice(0, -1);
  return `${cut}...`;
}

async function drawFields(doc: PDFDocument, input: SealInput): Promise<void> {
  const { rgb } = await pdfLib();
  const { regular, script } = await embedPdfFonts(doc, "regular", "script");
  const pages = doc.getPages();
  for (const field of input.fields) {
    const page = pages[field.page - 1];
    if (!page) continue;
    const { width: pw, height: ph } = page.getSize();
    const box = { x: field.x * pw, y: ph - (field.y + field.height) * ph, w: field.width * pw, h: field.height * ph };
    const signer = input.signers.find((s) => s.index === field.signer);
    if (field.type === "signature" || field.type === "initials") {
      const signature = signer?.signature;
      if (field.type === "signature" && signature?.type === "drawn") {
        const png = await doc.embedPng(Buffer.from(signature.image.slice(signature.image.indexOf(",") + 1), "base64"));
        const scale = Math.min(box.w / png.width, box.h / png.height);
        page.drawImage(png, { x: box.x, y: box.y, width: png.width * scale, height: png.height * scale });
        continue;
      }
      const text =
        field.type === "initials"
          ? (field.value ?? initialsOf(signer?.name ?? ""))
          : signature?.type === "typed"
            ? signature.text
            : (signer?.name ?? "");
      drawInBox(page, script, writable(script, text), box, rgb(0.05, 0.1, 0.45));
    } else if (field.type === "checkbox") {
      if (field.value === "true") drawInBox(page, regular, "X", box, rgb(0, 0, 0));
    } else if (field.value) {
      drawInBox(page, regular, writable(regular, field.value), box, rgb(0, 0, 0));
    }
  }
}

/** Text in a field's box: as large as the box's height allows, smaller when it is too long for the box's width (never below 6 pt), cut only then. */
function drawInBox(page: PDFPage, font: PDFFont, text: string, box: { x: number; y: number; w: number; h: number }, color: Color) {
  const tall = Math.max(4, Math.min(box.h * 0.75, 28));
  const wide = font.widthOfTextAtSize(text, tall);
  const size = wide <= box.w - 2 ? tall : Math.max(Math.min(tall, 6), (tall * (box.w - 2)) / wide);
  page.drawText(fit(font, text, size, box.w), { x: box.x + 1, y: box.y + (box.h - size * 0.75) / 2, size, font, color });
}

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}

function browserOf(userAgent: string | null): string {
  if (!userAgent) return "not recorded";
  try {
    const parsed = Bowser.parse(userAgent);
    const name = [parsed.browser.name, parsed.browser.version].filter(Boolean).join(" ");
    const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(" ");
    return name || os ? `${name || "unknown browser"} on ${os || "unknown system"}` : userAgent.slice(0, 120);
  } catch {
    return userAgent.slice(0, 120);
  }
}

const utc = (at: Date | null) => (at ? `${at.toISOString().replace("T", " ").slice(0, 19)} UTC` : "-");

/** The certificate page(s): the request, each signer's evidence, the hashes. */
async function appendCertificate(doc: PDFDocument, input: SealInput, filledSha256: string): Promise<PDFPage> {
  const { rgb } = await pdfLib();
  const { regular: font, bold } = await embedPdfFonts(doc, "regular", "bold");
  const [pw, ph, margin] = [612, 792, 54];
  let page = doc.addPage([pw, ph]);
  const first = page;
  let y = ph - margin;
  const line = (text: string, options: { bold?: boolean; size?: number; gap?: number } = {}) => {
    const f = options.bold ? bold : font;
    const size = options.size ?? 9.5;
    const words = writable(f, text).split(" ");
    let current = "";
    const flush = () => {
      if (y < margin + size) {
        page = doc.addPage([pw, ph]);
        y = ph - margin;
      }
      page.drawText(current, { x: margin, y, size, font: f, color: rgb(0, 0, 0) });
      y -= size * 1.35;
      current = "";
    };
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (f.widthOfTextAtSize(next, size) > pw - 2 * margin && current) {
        flush();
        current = word;
      } else current = next;
    }
    flush();
    y -= options.gap ?? 0;
  };
  line("Signature certificate", { bold: true, size: 16, gap: 6 });
  line(`${input.firmName} - ${input.publicUrl}`, { gap: 8 });
  line(`Request: ${input.request.title}`, { bold: true });
  line(`Kind: ${input.request.kind.replace("_", " ")}    Client account: ${input.request.account}`);
  line(`Request id: ${input.request.id}`);
  line(`Sent: ${utc(input.request.created)}    Completed: ${utc(input.request.completed)}`, { gap: 8 });
  for (const signer of input.signers) {
    line(`Signer ${signer.index + 1}: ${signer.name} <${signer.email}>`, { bold: true });
    line(`Identity check: ${signer.identity}`);
    line(`ESIGN consent: ${signer.consent}`);
    line(`Viewed: ${utc(signer.viewedAt)}    Signed: ${utc(signer.signedAt)}`);
    line(
      `Signature: ${signer.signature?.type === "drawn" ? "drawn" : signer.signature?.type === "typed" ? `typed "${signer.signature.text}"` : "-"}`,
    );
    line(`IP address: ${signer.ip ?? "not recorded"}    Browser: ${browserOf(signer.userAgent)}`, { gap: 6 });
  }
  line("Document integrity", { bold: true });
  line(`SHA-256 of the original: ${input.originalSha256}`);
  line(`SHA-256 of the signed pages (before this certificate and the seal): ${filledSha256}`);
  line(
    "The SHA-256 of the sealed file itself cannot be written inside it: the firm keeps it on record, and the portal's verification page (POST /api/signatures/verify) compares a copy against it. This file carries a digital signature (PKCS#7) over every byte but the signature itself: any change breaks it.",
  );
  return first;
}

/** Adds the signature dictionary with an empty /Contents and the /ByteRange placeholder, as an invisible widget on `page`. */
function addSignaturePlaceholder(
  lib: typeof PdfLib,
  doc: PDFDocument,
  page: PDFPage,
  signingTime: Date,
  reason: string,
  name: string,
  location: string,
): void {
  const { PDFArray, PDFDict, PDFHexString, PDFInvalidObject, PDFName, PDFNumber, PDFString } = lib;
  const context = doc.context;
  const byteRange = PDFArray.withContext(context);
  byteRange.push(PDFNumber.of(0));
  byteRange.push(PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER));
  byteRange.push(PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER));
  byteRange.push(PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER));
  const signature = context.obj({
    Type: "Sig",
    Filter: "Adobe.PPKLite",
    SubFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    ByteRange: byteRange,
    Contents: PDFHexString.of("0".repeat(SIGNATURE_LENGTH * 2)),
    Reason: PDFString.of(reason),
    M: PDFString.fromDate(signingTime),
    Name: PDFString.of(name),
    Location: PDFString.of(location),
    ContactInfo: PDFString.of(location),
  });
  // Written as an object of its own, never inside an object stream: the signer finds and fills it in the bytes.
  const bytes = new Uint8Array(signature.sizeInBytes());
  signature.copyBytesInto(bytes, 0);
  const signatureRef = context.register(PDFInvalidObject.of(bytes));
  const rect = context.obj([0, 0, 0, 0]);
  const appearance = context.formXObject([], { BBox: [0, 0, 0, 0], Resources: {} });
  const widget = context.obj({
    Type: "Annot",
    Subtype: "Widget",
    FT: "Sig",
    Rect: rect,
    V: signatureRef,
    T: PDFString.of("Seal"),
    F: ANNOTATION_FLAGS.PRINT,
    P: page.ref,
    AP: { N: context.register(appearance) },
  });
  const widgetRef = context.register(widget);
  const annotations = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray) ?? context.obj([]);
  annotations.push(widgetRef);
  page.node.set(PDFName.of("Annots"), annotations);
  let form = doc.catalog.lookupMaybe(PDFName.of("AcroForm"), PDFDict);
  if (!form) {
    form = context.obj({ Fields: [] });
    doc.catalog.set(PDFName.of("AcroForm"), context.register(form));
  }
  form.set(PDFName.of("SigFlags"), PDFNumber.of(SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY));
  const fields = form.lookupMaybe(PDFName.of("Fields"), PDFArray) ?? context.obj([]);
  fields.push(widgetRef);
  form.set(PDFName.of("Fields"), fields);
}

export type Sealed = { bytes: Buffer; sha256: string; filledSha256: string };

/** The sealed PDF: fields drawn, certificate appended, signed with `identity`. */
export async function sealPdf(original: Uint8Array, input: SealInput, identity: SealingIdentity, signingTime: Date): Promise<Sealed> {
  const lib = await pdfLib();
  const doc = await lib.PDFDocument.load(original, { updateMetadata: false });
  await drawFields(doc, input);
  const filled = await doc.save({ useObjectStreams: false });
  const filledSha256 = sha256Hex(filled);
  const withCertificate = await lib.PDFDocument.load(filled, { updateMetadata: false });
  const certificatePage = await appendCertificate(withCertificate, input, filledSha256);
  addSignaturePlaceholder(lib, withCertificate, certificatePage, signingTime, `Signed: ${input.request.title}`, input.firmName, input.publicUrl);
  const prepared = Buffer.from(await withCertificate.save({ useObjectStreams: false }));
  const signer = new P12Signer(identity.p12, { passphrase: identity.passphrase });
  const bytes = await new SignPdf().sign(prepared, signer, signingTime);
  return { bytes, sha256: sha256Hex(bytes), filledSha256 };
}
