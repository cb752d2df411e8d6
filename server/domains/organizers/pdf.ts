// GET /api/admin/organizers/:id/pdf: the organizer as the firm files it, a readable PDF of the
// visible questions and their answers (sensitive ones in full: this is the firm's copy), a group's
// entries one under the other, and the documents uploaded for each file question listed by name.
// Written with @cantoo/pdf-lib (maintained pdf-lib, MIT) in DejaVu Sans (server/pdf-fonts.ts): a
// character the font has no glyph for is shown as "?" rather than failing the download.
import type { Color, PDFDocument, PDFFont, PDFPage } from "@cantoo/pdf-lib";
import { embedPdfFonts, printableText } from "../../pdf-fonts.ts";
import { visibleIds } from "./rules.ts";
import type { AdminOrganizer, GroupQuestion, MemberQuestion, Question } from "./schemas.ts";

const PAGE = { width: 612, height: 792, margin: 54 };
const SIZE = { title: 18, heading: 13, text: 10 };
const LINE = 1.35;

type Fonts = { regular: PDFFont; bold: PDFFont };
type Ink = { text: Color; grey: Color };

class Writer {
  private page: PDFPage;
  private y: number;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    private readonly ink: Ink,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  /** The text with what the font has no glyph for as "?" (server/pdf-fonts.ts), and line breaks as given. */
  private safe(text: string, font: PDFFont): string {
    return printableText(font, text.replace(/\r\n?/g, "\n").replace(/\t/g, " "));
  }

  private lines(text: string, font: PDFFont, size: number, width: number): string[] {
    const result: string[] = [];
    for (const paragraph of this.safe(text, font).split("\n")) {
      let line = "";
      for (const word of paragraph.split(" ")) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= width) {
          line = candidate;
          continue;
        }
        if (line) result.push(line);
        // A word wider than the line (an account number without spaces, a URL) is cut.
        let rest = word;
        while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
          let cut = rest.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
          result.push(rest.slice(0, cut));
          rest = rest.slice(cut);
        }
        line = rest;
      }
      result.push(line);
    }
    return result;
  }

  write(text: string, options: { bold?: boolean; size?: number; indent?: number; grey?: boolean; after?: number } = {}) {
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    const size = options.size ?? SIZE.text;
    const indent = options.indent ?? 0;
    const width = PAGE.width - 2 * PAGE.margin - indent;
    for (const line of this.lines(text, font, size, width)) {
      if (this.y - size * LINE < PAGE.margin) {
        this.page = this.doc.addPage([PAGE.width, PAGE.height]);
        this.y = PAGE.height - PAGE.margin;
      }
      this.y -= size * LINE;
      this.page.drawText(line, { x: PAGE.margin + indent, y: this.y, size, font, color: options.grey ? this.ink.grey : this.ink.text });
    }
    this.y -= options.after ?? 0;
  }
}

function show(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.map(show).join(", ");
  return String(value);
}

function money(value: unknown): string {
  return typeof value === "number" ? `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}` : show(value);
}

function answerText(question: Question | MemberQuestion, value: unknown): string {
  if (value === undefined || value === null) return "(no answer)";
  return question.type === "money" ? money(value) : show(value);
}

export async function organizerPdf(organizer: AdminOrganizer, firmName: string): Promise<Uint8Array> {
  // Loaded at the first export, not with the app: a second of every start and of every test
  // process's import (docs/performance.md, "The test suite's time").
  const { PDFDocument, rgb } = await import("@cantoo/pdf-lib");
  const doc = await PDFDocument.create();
  doc.setTitle(organizer.title);
  doc.setAuthor(firmName);
  doc.setCreationDate(new Date(0));
  const writer = new Writer(doc, await embedPdfFonts(doc, "regular", "bold"), { text: rgb(0, 0, 0), grey: rgb(0.35, 0.35, 0.35) });
  const answers = new Map(organizer.answers.map((answer) => [answer.question_id, answer]));
  const values = new Map(organizer.answers.map((answer) => [answer.question_id, answer.value]));
  const visible = visibleIds(organizer.template, values);

  writer.write(organizer.title, { bold: true, size: SIZE.title, after: 4 });
  writer.write(`${organizer.client_label} · ${firmName}`, { grey: true });
  const status = organizer.submitted_at ? `Submitted ${organizer.submitted_at.toISOString().slice(0, 10)}` : `Status: ${organizer.status}`;
  writer.write(`${status}${organizer.due_date ? ` · Due ${organizer.due_date}` : ""}`, { grey: true, after: 10 });

  for (const section of organizer.template.sections) {
    const shown = section.questions.filter((q) => visible.has(q.id));
    if (shown.length === 0) continue;
    writer.write(section.title, { bold: true, size: SIZE.heading, after: 4 });
    for (const question of shown) {
      const answer = answers.get(question.id);
      const marks = [answer?.reviewed ? "reviewed" : null, answer?.from_last_year ? "last year's answer" : null].filter(Boolean).join(", ");
      writer.write(`${question.label}${marks ? ` (${marks})` : ""}`, { bold: true });
      if (question.type === "file") {
        const documents = organizer.documents[question.id] ?? [];
        if (documents.length === 0) writer.write("(no documents)", { indent: 12, grey: true });
        for (const document of documents) writer.write(`- ${document.original_filename}`, { indent: 12 });
      } else if (question.type === "group") {
        writeGroup(writer, question, answer?.value);
      } else {
        writer.write(answerText(question, answer?.value), { indent: 12 });
      }
      writer.write("", { size: 4 });
    }
    writer.write("", { after: 6 });
  }
  return doc.save();
}

function writeGroup(writer: Writer, group: GroupQuestion, value: unknown) {
  if (!Array.isArray(value) || value.length === 0) {
    writer.write("(no entries)", { indent: 12, grey: true });
    return;
  }
  (value as Array<Record<string, unknown>>).forEach((entry, index) => {
    writer.write(`${index + 1}.`, { indent: 12, bold: true });
    for (const member of group.questions) {
      if (entry[member.id] === undefined) continue;
      writer.write(`${member.label}: ${answerText(member, entry[member.id])}`, { indent: 24 });
    }
  });
}
