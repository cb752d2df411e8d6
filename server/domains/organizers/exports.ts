// Organizers' answers leaving the portal (docs/decisions.md, "Organizers"): one template's answers as the
// firm's CSV, and an account's organizers for its export (account-export/service.ts).
import { TRPCError } from "@trpc/server";
import type { Db } from "../../db/types.ts";
import type { FirmContext } from "../../trpc/context.ts";
import { findAnyTemplate, listAccountOrganizersForExport, listAnswerRows, listTemplateOrganizersForFirm } from "./queries.ts";
import { findQuestion, MASKED, maskValue, topQuestions } from "./rules.ts";
import { type Question, TEMPLATE_NOT_FOUND } from "./schemas.ts";
import { answerValue, documentsByQuestion, type SealingContext } from "./common.ts";

// ---- exports

/**
 * One template's answers across the accounts the asker reaches, as a table: a row per organizer
 * sent from it, a column per question of the template as it is now (an organizer sent with an
 * older copy fills the columns whose question ids it shares). A file question gives its documents'
 * names; a group its entries as "label: value; ..." joined by " | ". Sensitive answers are masked
 * here (a spreadsheet of account numbers travels further than the portal; the organizer's own page
 * and PDF show them in full).
 */
export async function answersTable(ctx: FirmContext, input: { id: string }): Promise<{ filename: string; rows: string[][] }> {
  const template = await findAnyTemplate(ctx.db, input.id);
  if (!template) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
  const questions = topQuestions(template.template);
  const header = ["Client", "Organizer", "Status", "Submitted at", ...questions.map((q) => q.label)];
  const rows: string[][] = [header];
  for (const organizer of await listTemplateOrganizersForFirm(ctx.db, ctx.firmScope, template.id)) {
    const [answers, documents] = await Promise.all([listAnswerRows(ctx.db, organizer.id), documentsByQuestion(ctx.db, organizer.id)]);
    const byId = new Map(answers.map((answer) => [answer.question_id, answer]));
    const own = organizer.template;
    rows.push([
      organizer.client_label,
      organizer.title,
      organizer.status,
      organizer.submitted_at?.toISOString() ?? "",
      ...questions.map((q) => {
        const asked = findQuestion(own, q.id);
        if (!asked || asked.type !== q.type) return "";
        if (q.type === "file") return (documents[q.id] ?? []).map((d) => d.original_filename).join("; ");
        const answer = byId.get(q.id);
        if (!answer || (answer.value === null && answer.sealed === null)) return "";
        if (answer.sealed !== null) return maskValue(answerValue(ctx, answer) ?? "");
        return cellText(asked, answer.value);
      }),
    ]);
  }
  const name =
    template.name
      .replace(/[^A-Za-z0-9 _-]+/g, "")
      .trim()
      .replace(/\s+/g, "-") || "organizer";
  return { filename: `${name}-answers.csv`, rows };
}

export type OrganizerExport = {
  id: string;
  title: string;
  status: string;
  due_date: string | null;
  sent_at: string | null;
  submitted_at: string | null;
  reopen_comment: string | null;
  questions: Array<{
    id: string;
    label: string;
    type: Question["type"];
    sensitive: boolean;
    /** The answer as stored (a group's entries as objects), or masked text; null when unanswered. */
    answer: unknown;
    /** The answer as one line, as the CSV has it. */
    answer_text: string;
    /** A file question's documents, by name (the files themselves are among the account's documents). */
    files: string[];
  }>;
};

/**
 * An account's organizers for its export (account-export/service.ts). Whose export decides what a
 * sensitive answer is: the firm's has it opened, as the firm's review page shows it; the client's
 * has it masked, as the client's own page does, so that a session taken over cannot collect the
 * account numbers by downloading the export (docs/decisions.md, "Organizers"). Drafts were never
 * sent: only the firm's export has them.
 */
export async function organizersForExport(ctx: SealingContext & { db: Db }, accountId: string, view: "firm" | "client"): Promise<OrganizerExport[]> {
  const organizers = await listAccountOrganizersForExport(ctx.db, accountId, view === "firm");
  return Promise.all(
    organizers.map(async (organizer) => {
      const [answers, documents] = await Promise.all([listAnswerRows(ctx.db, organizer.id), documentsByQuestion(ctx.db, organizer.id)]);
      const byId = new Map(answers.map((answer) => [answer.question_id, answer]));
      return {
        id: organizer.id,
        title: organizer.title,
        status: organizer.status,
        due_date: organizer.due_date,
        sent_at: organizer.sent_at?.toISOString() ?? null,
        submitted_at: organizer.submitted_at?.toISOString() ?? null,
        reopen_comment: organizer.reopen_comment,
        questions: topQuestions(organizer.template).map((question) => {
          const files = question.type === "file" ? (documents[question.id] ?? []).map((d) => d.original_filename) : [];
          const row = byId.get(question.id);
          let answer: unknown = null;
          let text = files.join("; ");
          if (row && (row.value !== null || row.sealed !== null)) {
            const value = answerValue(ctx, row);
            answer = row.sealed !== null && view === "client" ? (value === null ? MASKED : maskValue(value)) : value;
            text = row.sealed !== null && view === "client" ? String(answer) : cellText(question, value);
          }
          return { id: question.id, label: question.label, type: question.type, sensitive: question.sensitive, answer, answer_text: text, files };
        }),
      };
    }),
  );
}

function cellText(question: Question, value: unknown): string {
  if (question.type === "group" && Array.isArray(value)) {
    return (value as Array<Record<string, unknown>>)
      .map((entry) =>
        question.questions
          .filter((m) => entry[m.id] !== undefined)
          .map((m) => `${m.label}: ${plain(entry[m.id])}`)
          .join("; "),
      )
      .join(" | ");
  }
  return plain(value);
}

function plain(value: unknown): string {
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.map(plain).join("; ");
  return value === null || value === undefined ? "" : String(value);
}
