// The fonts the portal's own PDFs are written in: the signature certificate and the fields drawn on
// a signed document (domains/signatures/seal.ts), and the organizer export (domains/organizers/pdf.ts).
//
// DejaVu Sans, Sans Bold and Serif Italic (the typed signature), from the `dejavu-fonts-ttf`
// package, embedded as subsets of the characters a document uses (a few KB each). They cover Latin
// with its extensions, Vietnamese, Greek and Cyrillic, so a signer named "Nguyễn Thị Đặng" or
// "Łukasz Wróbel" is printed as written; PDF's standard fonts know only WinAnsi and printed such names
// with "?". What a font has no glyph for (Chinese, for one) still becomes "?", never an empty box.
// The DejaVu licence (Bitstream Vera's terms) allows embedding in documents.
import fs from "node:fs";
import { createRequire } from "node:module";
import type { PDFDocument, PDFFont } from "@cantoo/pdf-lib";

export type PdfFonts = { regular: PDFFont; bold: PDFFont; script: PDFFont };

const FILES = { regular: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf", script: "DejaVuSerif-Italic.ttf" } as const;

const require = createRequire(import.meta.url);
/** Each font file read once (about 2 MB for the three), on first use. */
const bytes = new Map<keyof PdfFonts, Buffer>();
function fontBytes(which: keyof PdfFonts): Buffer {
  let file = bytes.get(which);
  if (!file) {
    file = fs.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${FILES[which]}`));
    bytes.set(which, file);
  }
  return file;
}

/**
 * The fonts named, embedded in `doc` as subsets (the same document always gets the same bytes), only
 * those a document draws with: each adds its subset (about 12 KB, hinting included) to the file.
 */
export async function embedPdfFonts<K extends keyof PdfFonts>(doc: PDFDocument, ...which: K[]): Promise<Pick<PdfFonts, K>> {
  // Loaded at the first PDF written, not with the app (docs/performance.md, "The test suite's time").
  const { default: fontkit } = await import("@cantoo/fontkit");
  doc.registerFontkit(fontkit);
  const fonts = {} as Pick<PdfFonts, K>;
  for (const name of which) fonts[name] = await doc.embedFont(fontBytes(name), { subset: true });
  return fonts;
}

const printable = new WeakMap<PDFFont, Set<number>>();

/** `text` with each character `font` has no glyph for written "?" (line breaks kept as they are). */
export function printableText(font: PDFFont, text: string): string {
  let glyphs = printable.get(font);
  if (!glyphs) {
    glyphs = new Set(font.getCharacterSet());
    printable.set(font, glyphs);
  }
  let out = "";
  for (const char of text) out += char === "\n" || glyphs.has(char.codePointAt(0)!) ? char : "?";
  return out;
}
