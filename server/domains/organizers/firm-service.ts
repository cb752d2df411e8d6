// The firm's side of organizers (docs/decisions.md, "Organizers"): its templates, sending one to one or many
// client accounts (each organizer keeps its copy of the template, pre-filled from the account's last
// submitted organizer of the same template), reading them, the reviewed marks and reopen. The mail of
// each change is queued, and its trail entry written, in the change's own transaction.
import { TRPCError } from "@trpc/server";
import { accountClient, recordActivity } from "../activity/record.ts";
import { findAccountName } from "../accounts/queries.ts";
import { accountForFirm } from "../accounts/service.ts";
import type { Db } from "../../db/types.ts";
import type { AuthedContext, FirmContext } from "../../trpc/context.ts";
import type { Page } from "../admin/schemas.ts";
import { localDate } from "../appointments/firm-clock.ts";
import { READY_TEMPLATES } from "./ready-templates.ts";
import {
  archiveTemplate,
  findLastSubmitted,
  findOrganizerForFirm,
  findTemplateRow,
  insertCopiedAnswers,
  insertOrganizer,
  insertTemplate,
  listAnswerRows,
  listOrganizersForFirm,
  listTemplateRows,
  lockOrganizerForFirm,
  setOrganizerStatus,
  setReviewed,
  updateTemplateRow,
} from "./queries.ts";
import { checkValue, findQuestion } from "./rules.ts";
import {
  ACCOUNT_NOT_FOUND,
  type AdminOrganizer,
  type AdminOrganizerListInput,
  type AdminOrganizerListItem,
  type CreateOrganizerInput,
  DUE_DATE_PASSED,
  NOT_SUBMITTED,
  ORGANIZER_NOT_FOUND,
  QUESTION_NOT_FOUND,
  type Template,
  type TemplateInput,
  type TemplateOutput,
  TEMPLATE_NOT_FOUND,
  type UpdateTemplateInput,
} from "./schemas.ts";
import { answerBase, answerValue, documentsByQuestion } from "./common.ts";

// ---- templates

type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplateRow>>>;

function toTemplate(row: TemplateRow): TemplateOutput {
  // Stored only after templateSchema parsed it.
  return { ...row, template: row.template, organizer_count: row.organizer_count ?? 0 };
}

export async function listTemplates(ctx: FirmContext): Promise<TemplateOutput[]> {
  return (await listTemplateRows(ctx.db)).map(toTemplate);
}

export async function getTemplate(ctx: FirmContext, input: { id: string }): Promise<TemplateOutput> {
  const row = await findTemplateRow(ctx.db, input.id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
  return toTemplate(row);
}

export function readyTemplates() {
  return READY_TEMPLATES.map((ready) => ({ ...ready }));
}

export async function createTemplate(ctx: FirmContext, input: TemplateInput): Promise<TemplateOutput> {
  const id = await ctx.db.transaction().execute(async (tx) => {
    const { id } = await insertTemplate(tx, { name: input.name, template: input.template, created_by: ctx.user.id, now: ctx.now() });
    await recordTemplateActivity(tx, ctx, "organizer_template.create", id, input.name);
    return id;
  });
  return getTemplate(ctx, { id });
}

/** A template in use may change: every organizer already sent keeps its own copy. */
export async function updateTemplate(ctx: FirmContext, input: UpdateTemplateInput): Promise<TemplateOutput> {
  await ctx.db.transaction().execute(async (tx) => {
    const updated = await updateTemplateRow(tx, input.id, { name: input.name, template: input.template, now: ctx.now() });
    if (!updated) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
    await recordTemplateActivity(tx, ctx, "organizer_template.update", input.id, updated.name);
  });
  return getTemplate(ctx, input);
}

/** Out of the firm's list and no longer sendable; organizers sent from it, and the CSV of their answers, stay. */
export async function deleteTemplate(ctx: FirmContext, input: { id: string }): Promise<{ success: true }> {
  await ctx.db.transaction().execute(async (tx) => {
    const archived = await archiveTemplate(tx, input.id, ctx.now());
    if (!archived) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
    await recordTemplateActivity(tx, ctx, "organizer_template.delete", input.id, archived.name);
  });
  return { success: true };
}

function recordTemplateActivity(
  tx: Db,
  ctx: AuthedContext,
  action: "organizer_template.create" | "organizer_template.update" | "organizer_template.delete",
  id: string,
  name: string,
) {
  return recordActivity(tx, ctx, { action, client: null, target: { type: "organizer_template", id }, detail: { name } });
}

// ---- sending

/**
 * Sends the template to one account or to many (all or none: an account out of reach is the whole
 * request's 404). Each organizer gets the template's copy and last year's answers of the account.
 */
export async function createOrganizers(ctx: FirmContext, input: CreateOrganizerInput): Promise<AdminOrganizerListItem[]> {
  if (input.due_date !== null && input.due_date < localDate(ctx.now(), ctx.config.firmTimeZone)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: DUE_DATE_PASSED });
  }
  const template = await findTemplateRow(ctx.db, input.template_id);
  if (!template) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
  const named = input.account_ids ?? [input.account_id as string];
  const accountIds: string[] = [];
  for (const accountId of new Set(named)) accountIds.push(await accountForFirm(ctx.db, ctx.firmScope, { account_id: accountId }, ACCOUNT_NOT_FOUND));
  const status = input.draft ? "draft" : "sent";
  const ids = await ctx.db.transaction().execute(async (tx) => {
    const created: string[] = [];
    for (const accountId of accountIds) {
      const { id } = await insertOrganizer(tx, {
        account_id: accountId,
        template_id: template.id,
        template: template.template,
        title: input.title,
        due_date: input.due_date,
        status,
        created_by: ctx.user.id,
        now: ctx.now(),
      });
      await prefillFromLastYear(tx, accountId, template.id, id, template.template, ctx.now());
      if (status === "sent") await announce(tx, ctx, { id, account_id: accountId, title: input.title });
      created.push(id);
    }
    return created;
  });
  return Promise.all(ids.map((id) => adminListItem(ctx, id)));
}

/** A draft goes out: the client sees it from now on. */
export async function sendOrganizer(ctx: FirmContext, input: { id: string }): Promise<AdminOrganizer> {
  await ctx.rateLimits.consumeFirmMailToClients(ctx.user.id);
  await ctx.db.transaction().execute(async (tx) => {
    const organizer = await lockOrganizerForFirm(tx, ctx.firmScope, input.id);
    if (!organizer) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
    if (organizer.status !== "draft") throw new TRPCError({ code: "CONFLICT", message: "This organizer is already sent" });
    await setOrganizerStatus(tx, organizer.id, { status: "sent", now: ctx.now(), sent_at: ctx.now() });
    await announce(tx, ctx, organizer);
  });
  return getOrganizerForFirm(ctx, input);
}

async function announce(tx: Db, ctx: FirmContext, organizer: { id: string; account_id: string; title: string }) {
  await ctx.jobs.send("email", { kind: "organizer-sent", organizerId: organizer.id }, { tx });
  const client = accountClient((await findAccountName(tx, organizer.account_id)) ?? { id: organizer.account_id, name: organizer.account_id });
  await recordActivity(tx, ctx, {
    action: "organizer.send",
    client,
    target: { type: "organizer", id: organizer.id },
    detail: { title: organizer.title },
  });
}

/**
 * Last year's answers: the account's latest submitted organizer of the same template, its answers
 * to questions the new copy still asks with the same type (and still valid for it), marked as last
 * year's until the client confirms or changes them. Files are not carried over.
 */
async function prefillFromLastYear(tx: Db, accountId: string, templateId: string, organizerId: string, template: Template, now: Date) {
  const last = await findLastSubmitted(tx, accountId, templateId);
  if (!last || last.id === organizerId) return;
  const lastTemplate = last.template;
  const rows = await listAnswerRows(tx, last.id);
  const copied: Array<{ question_id: string; value: unknown; sealed: string | null }> = [];
  for (const row of rows) {
    const question = findQuestion(template, row.question_id);
    const before = findQuestion(lastTemplate, row.question_id);
    if (!question || !before || question.type !== before.type || question.type === "file") continue;
    if (row.sealed !== null) {
      // Sealed stays sealed (as long as the question is still sensitive); nothing is opened to copy it.
      if (question.sensitive) copied.push({ question_id: row.question_id, value: null, sealed: row.sealed });
      continue;
    }
    if (row.value === null || question.sensitive) continue;
    const checked = checkValue(question, row.value);
    if (checked.ok && checked.value !== null) copied.push({ question_id: row.question_id, value: checked.value, sealed: null });
  }
  await insertCopiedAnswers(tx, organizerId, copied, now);
}

// ---- the firm's views and changes

type FirmRow = NonNullable<Awaited<ReturnType<typeof findOrganizerForFirm>>>;

function toListItem(row: FirmRow): AdminOrganizerListItem {
  const { template: _template, folder_id: _folder, ...rest } = row;
  return rest;
}

async function adminListItem(ctx: FirmContext, id: string): Promise<AdminOrganizerListItem> {
  const row = await findOrganizerForFirm(ctx.db, ctx.firmScope, id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
  return toListItem(row);
}

export async function listOrganizers(ctx: FirmContext, input: AdminOrganizerListInput): Promise<Page<AdminOrganizerListItem>> {
  const offset = input.cursor ?? 0;
  const { items, total } = await listOrganizersForFirm(ctx.db, ctx.firmScope, { ...input, offset });
  return { items: items.map(toListItem), total, nextCursor: offset + items.length < total ? offset + items.length : null };
}

/** The firm reads every answer in full, sensitive ones opened. */
export async function getOrganizerForFirm(ctx: FirmContext, input: { id: string }): Promise<AdminOrganizer> {
  const row = await findOrganizerForFirm(ctx.db, ctx.firmScope, input.id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
  const template = row.template;
  const [answers, documents] = await Promise.all([listAnswerRows(ctx.db, row.id), documentsByQuestion(ctx.db, row.id)]);
  return {
    ...toListItem(row),
    template,
    answers: answers.map((answer) => ({
      ...answerBase(answer),
      value: answerValue(ctx, answer),
      masked: null,
      reviewed_at: answer.reviewed_at,
      reviewed_by_name: answer.reviewed_by_name,
      sensitive: findQuestion(template, answer.question_id)?.sensitive ?? false,
    })),
    documents,
  };
}

/** The firm's reviewed mark on one answer (a file question's too); a change by the client clears it. */
export async function markReviewed(ctx: FirmContext, input: { id: string; question_id: string; reviewed: boolean }): Promise<AdminOrganizer> {
  await ctx.db.transaction().execute(async (tx) => {
    const organizer = await lockOrganizerForFirm(tx, ctx.firmScope, input.id);
    if (!organizer) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
    if (!findQuestion(organizer.template, input.question_id)) throw new TRPCError({ code: "NOT_FOUND", message: QUESTION_NOT_FOUND });
    await setReviewed(tx, organizer.id, input.question_id, input.reviewed ? ctx.user.id : null, ctx.now());
  });
  return getOrganizerForFirm(ctx, input);
}

/** Back to the client with a comment saying what is missing; they are mailed (the comment stays in the portal). */
export async function reopenOrganizer(ctx: FirmContext, input: { id: string; comment: string }): Promise<AdminOrganizer> {
  await ctx.rateLimits.consumeFirmMailToClients(ctx.user.id);
  await ctx.db.transaction().execute(async (tx) => {
    const organizer = await lockOrganizerForFirm(tx, ctx.firmScope, input.id);
    if (!organizer) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
    if (organizer.status !== "submitted") throw new TRPCError({ code: "CONFLICT", message: NOT_SUBMITTED });
    await setOrganizerStatus(tx, organizer.id, { status: "reopened", now: ctx.now(), reopen_comment: input.comment });
    await ctx.jobs.send("email", { kind: "organizer-reopened", organizerId: organizer.id }, { tx });
    await recordActivity(tx, ctx, {
      action: "organizer.reopen",
      client: accountClient({ id: organizer.account_id, name: organizer.client_label }),
      target: { type: "organizer", id: organizer.id },
      detail: { title: organizer.title },
    });
  });
  return getOrganizerForFirm(ctx, input);
}
