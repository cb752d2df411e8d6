// Organizers (issue 36; docs/decisions.md, "Organizers"): the firm's templates, sending one to one
// or many client accounts (each organizer keeps its copy of the template, pre-filled from the
// account's last submitted organizer of the same template), the client's partial saves, submit and
// take back, and the firm's reviewed marks and reopen. The mail of each change is queued, and its
// trail entry written, in the change's own transaction.
import { TRPCError } from "@trpc/server";
import { RequestRefused } from "../../trpc/errors.ts";
import { accountClient, recordActivity } from "../activity/record.ts";
import { findAccountName } from "../accounts/queries.ts";
import { accountForFirm } from "../accounts/service.ts";
import { addToInbox } from "../inbox/queries.ts";
import type { Db } from "../../db/types.ts";
import type { AuthedContext, ClientContext, FirmContext } from "../../trpc/context.ts";
import type { Page } from "../admin/schemas.ts";
import { localDate } from "../appointments/firm-clock.ts";
import { READY_TEMPLATES } from "./ready-templates.ts";
import {
  type AnswerRow,
  archiveTemplate,
  confirmAnswer,
  deleteAnswers,
  findAnyTemplate,
  findLastSubmitted,
  findOrganizerForFirm,
  findOwnOrganizer,
  findTemplateRow,
  folderExists,
  insertCopiedAnswers,
  insertOrganizer,
  insertTemplate,
  listAccountOrganizersForExport,
  listAnswerRows,
  listOrganizerDocuments,
  listOrganizersForFirm,
  listOwnOrganizers,
  listTemplateOrganizersForFirm,
  listTemplateRows,
  lockOrganizerForFirm,
  lockOwnOrganizer,
  rootFolderNamed,
  setOrganizerFolder,
  setOrganizerStatus,
  setReviewed,
  touchOrganizer,
  updateTemplateRow,
  upsertAnswer,
} from "./queries.ts";
import {
  checkValue,
  findQuestion,
  isEmpty,
  answerRefusal,
  type KeptEntry,
  maskValue,
  missingRequired,
  pruneGroup,
  resolveKept,
  topQuestions,
  unaskedAnswer,
  visibleIds,
} from "./rules.ts";
import {
  ACCOUNT_NOT_FOUND,
  type AdminOrganizer,
  type AdminOrganizerListInput,
  type AdminOrganizerListItem,
  ALREADY_SUBMITTED,
  ANSWER_NOT_SAVED,
  type AnswerOutput,
  type ClientOrganizer,
  type ClientOrganizerListItem,
  type CreateOrganizerInput,
  DUE_DATE_PASSED,
  NOT_A_FILE_QUESTION,
  NOT_OPEN_FOR_ANSWERS,
  NOT_SUBMITTED,
  ORGANIZER_NOT_FOUND,
  type Question,
  QUESTION_NOT_FOUND,
  REQUIRED_UNANSWERED,
  type Template,
  type TemplateInput,
  type TemplateOutput,
  TEMPLATE_NOT_FOUND,
  type UpdateTemplateInput,
} from "./schemas.ts";
import { openAnswer, sealAnswer } from "./sealing.ts";

type SealingContext = Pick<AuthedContext, "config" | "logger">;

// ---- templates

type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplateRow>>>;

function toTemplate(row: TemplateRow): TemplateOutput {
  // Stored only after templateSchema parsed it.
  return { ...row, template: row.template as Template, organizer_count: row.organizer_count ?? 0 };
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
        template: template.template as Template,
        title: input.title,
        due_date: input.due_date,
        status,
        created_by: ctx.user.id,
        now: ctx.now(),
      });
      await prefillFromLastYear(tx, accountId, template.id, id, template.template as Template, ctx.now());
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
  const lastTemplate = last.template as Template;
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
  const template = row.template as Template;
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
    if (!findQuestion(organizer.template as Template, input.question_id)) throw new TRPCError({ code: "NOT_FOUND", message: QUESTION_NOT_FOUND });
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

// ---- the client's

export async function listOwn(ctx: ClientContext): Promise<ClientOrganizerListItem[]> {
  const rows = await listOwnOrganizers(ctx.db, ctx.account.id);
  return rows.map(({ template, folder_id: _folder, answered, ...row }) => ({
    ...row,
    answered: answered ?? 0,
    questions: topQuestions(template as Template).length,
  }));
}

/** The client's organizer: sensitive answers masked, even the one just typed (docs/decisions.md, "Organizers"). */
export async function getOwn(ctx: ClientContext, input: { id: string }): Promise<ClientOrganizer> {
  const row = await findOwnOrganizer(ctx.db, ctx.account.id, input.id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
  const template = row.template as Template;
  const [answers, documents] = await Promise.all([listAnswerRows(ctx.db, row.id), documentsByQuestion(ctx.db, row.id)]);
  const { folder_id: _folder, ...organizer } = row;
  return {
    ...organizer,
    template,
    answers: answers
      // A row with only the firm's reviewed mark (a file question's) stays: the client sees the mark.
      .filter((answer) => answer.value !== null || answer.sealed !== null || answer.reviewed_at !== null)
      .map((answer): AnswerOutput => {
        const base = answerBase(answer);
        if (answer.sealed === null) return { ...base, value: answer.value, masked: null };
        const value = answerValue(ctx, answer);
        return { ...base, value: null, masked: value === null ? "••••" : maskValue(value) };
      }),
    documents,
  };
}

function answerBase(answer: AnswerRow) {
  return {
    question_id: answer.question_id,
    from_last_year: answer.from_last_year,
    reviewed: answer.reviewed_at !== null,
    version: answer.version,
    updated_at: answer.updated_at,
  };
}

/**
 * An answer's value, a sealed one opened. One that does not open (TOTP_ENCRYPTION_KEY unset or
 * changed since) reads as no answer, logged, rather than failing every read of the organizer.
 */
function answerValue(ctx: SealingContext, answer: Pick<AnswerRow, "value" | "sealed" | "question_id">): unknown {
  if (answer.sealed === null) return answer.value;
  try {
    return openAnswer(answer.sealed, ctx.config.totpEncryptionKey);
  } catch (err) {
    ctx.logger.error({ err, question_id: answer.question_id }, "a sealed organizer answer does not open");
    return null;
  }
}

async function documentsByQuestion(db: Db, organizerId: string) {
  const byQuestion: Record<string, Array<{ id: string; original_filename: string; file_size: number; upload_date: Date }>> = {};
  for (const { organizer_question_id, ...document } of await listOrganizerDocuments(db, organizerId)) {
    if (!organizer_question_id) continue;
    (byQuestion[organizer_question_id] ??= []).push(document);
  }
  return byQuestion;
}

function isOpenForAnswers(status: string): boolean {
  return status === "sent" || status === "reopened";
}

/**
 * A partial save: only the questions named are written, each in its own row (two saves side by side
 * never lose each other's answers; the organizer's row lock makes them take turns, so each sees
 * the other's answers when it decides what is hidden). null clears an answer; the same value as
 * last year's confirms it. Nothing sent is dropped silently (issue 48): a value a question does not
 * take is refused (422), and so is an answer to a question the answers, once saved, do not ask
 * (400), each naming the question; the save is all or nothing. Answers of questions hidden by this
 * save's own answers are removed: hidden questions keep no answers.
 */
export async function saveAnswers(ctx: ClientContext, input: { id: string; answers: Record<string, unknown> }): Promise<ClientOrganizer> {
  await ctx.db.transaction().execute(async (tx) => {
    const organizer = await lockOwnOrganizer(tx, ctx.account.id, input.id);
    if (!organizer) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
    if (!isOpenForAnswers(organizer.status)) throw new TRPCError({ code: "CONFLICT", message: NOT_OPEN_FOR_ANSWERS });
    const template = organizer.template as Template;
    const rows = new Map((await listAnswerRows(tx, organizer.id)).map((row) => [row.question_id, row]));
    const values = new Map<string, unknown>();
    for (const [id, row] of rows) values.set(id, answerValue(ctx, row));

    const changes = new Map<string, unknown>();
    /** Each group's entries as sent (kept ones marked), for the hidden-member check below. */
    const sentEntries = new Map<string, ReadonlyArray<Record<string, unknown> | KeptEntry>>();
    for (const [questionId, raw] of Object.entries(input.answers)) {
      const question = findQuestion(template, questionId);
      if (!question) throw new TRPCError({ code: "BAD_REQUEST", message: `${ANSWER_NOT_SAVED}: ${questionId}: not a question of this organizer` });
      const checked = checkValue(question, raw);
      if (!checked.ok)
        throw new TRPCError({ code: "BAD_REQUEST", message: answerRefusal(question, `${questionId}${checked.at ?? ""}`, checked.message) });
      let value = checked.value;
      if (question.type === "group" && Array.isArray(value)) {
        sentEntries.set(questionId, value as Array<Record<string, unknown> | KeptEntry>);
        const resolved = resolveKept(value as Array<Record<string, unknown> | KeptEntry>, values.get(questionId));
        if ("missing" in resolved) {
          const saved = Array.isArray(values.get(questionId)) ? (values.get(questionId) as unknown[]).length : 0;
          throw new TRPCError({
            code: "BAD_REQUEST",
            message: answerRefusal(question, `${questionId}[${resolved.missing}]`, `keeps a saved entry that is not there (${saved} saved)`),
          });
        }
        value = resolved.entries;
      }
      changes.set(questionId, value);
    }
    for (const [id, value] of changes) values.set(id, value);
    const visible = visibleIds(template, values);
    const unasked = unaskedAnswer(template, changes, sentEntries, values, visible);
    if (unasked) throw new RequestRefused(unasked);

    const now = ctx.now();
    const removed: string[] = [];
    for (const [questionId, value] of changes) {
      const row = rows.get(questionId);
      if (value === null) {
        if (row) removed.push(questionId);
        continue;
      }
      if (row && row.from_last_year && JSON.stringify(answerValue(ctx, row)) === JSON.stringify(value)) {
        await confirmAnswer(tx, organizer.id, questionId, now);
        continue;
      }
      await upsertAnswer(tx, organizer.id, questionId, stored(ctx, findQuestion(template, questionId)?.sensitive ?? false, value), now);
    }
    // Hidden questions keep no answers; a group keeps no answers of members hidden in an entry.
    for (const question of topQuestions(template)) {
      const value = values.get(question.id);
      if (isEmpty(value) && !changes.has(question.id)) continue;
      if (!visible.has(question.id)) {
        if (rows.has(question.id)) removed.push(question.id);
      } else if (question.type === "group" && Array.isArray(value)) {
        const pruned = pruneGroup(question, value as Array<Record<string, unknown>>, values, visible);
        if (JSON.stringify(pruned) !== JSON.stringify(value))
          await upsertAnswer(tx, organizer.id, question.id, stored(ctx, question.sensitive, pruned), now);
      }
    }
    await deleteAnswers(tx, organizer.id, [...new Set(removed)]);
    await touchOrganizer(tx, organizer.id, now);
  });
  return getOwn(ctx, input);
}

function stored(ctx: SealingContext, sensitive: boolean, value: unknown): { value: string | null; sealed: string | null } {
  return sensitive ? { value: null, sealed: sealAnswer(value, ctx.config.totpEncryptionKey) } : { value: JSON.stringify(value), sealed: null };
}

/** The client hands it in: 422 naming every required visible question still empty. The firm is mailed and told in its Inbox. */
export async function submitOrganizer(ctx: ClientContext, input: { id: string }): Promise<ClientOrganizer> {
  await ctx.db.transaction().execute(async (tx) => {
    const organizer = await lockOwnOrganizer(tx, ctx.account.id, input.id);
    if (!organizer) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
    if (organizer.status === "submitted") throw new TRPCError({ code: "CONFLICT", message: ALREADY_SUBMITTED });
    const template = organizer.template as Template;
    const values = new Map((await listAnswerRows(tx, organizer.id)).map((row) => [row.question_id, answerValue(ctx, row)]));
    const files = new Map<string, number>();
    for (const document of await listOrganizerDocuments(tx, organizer.id)) {
      if (document.organizer_question_id) files.set(document.organizer_question_id, (files.get(document.organizer_question_id) ?? 0) + 1);
    }
    const missing = missingRequired(template, values, files);
    if (missing.length > 0) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: `${REQUIRED_UNANSWERED}: ${missing.join(", ")}` });
    await setOrganizerStatus(tx, organizer.id, { status: "submitted", now: ctx.now(), submitted_at: ctx.now() });
    await ctx.jobs.send("email", { kind: "organizer-submitted", organizerId: organizer.id }, { tx });
    await addToInbox(tx, {
      kind: "organizer_submitted",
      account_id: ctx.account.id,
      actor_id: ctx.user.id,
      subject_id: organizer.id,
      summary: { title: organizer.title },
      at: ctx.now(),
    });
    await recordActivity(tx, ctx, {
      action: "organizer.submit",
      client: accountClient(ctx.account),
      target: { type: "organizer", id: organizer.id },
      detail: { title: organizer.title },
    });
  });
  return getOwn(ctx, input);
}

/**
 * Un-submit: the client takes a submitted organizer back to change an answer (it was sent too
 * early, a late 1099 arrived). It is open again as before; the firm's reviewed marks stay on the
 * answers the client does not change.
 */
export async function unsubmitOrganizer(ctx: ClientContext, input: { id: string }): Promise<ClientOrganizer> {
  await ctx.db.transaction().execute(async (tx) => {
    const organizer = await lockOwnOrganizer(tx, ctx.account.id, input.id);
    if (!organizer) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
    if (organizer.status !== "submitted") throw new TRPCError({ code: "CONFLICT", message: NOT_SUBMITTED });
    await setOrganizerStatus(tx, organizer.id, { status: organizer.reopen_comment ? "reopened" : "sent", now: ctx.now(), submitted_at: null });
    await recordActivity(tx, ctx, {
      action: "organizer.unsubmit",
      client: accountClient(ctx.account),
      target: { type: "organizer", id: organizer.id },
      detail: { title: organizer.title },
    });
  });
  return getOwn(ctx, input);
}

// ---- file answers (documents/upload.ts)

/**
 * Before an upload's file is stored: the account's organizer, open for answers, and one of its
 * file questions (404 for another account's organizer or an unknown question, 422 for a question
 * that takes no file, 409 once submitted).
 */
export async function checkOrganizerUpload(tx: Db, accountId: string, organizerId: string, questionId: string | null) {
  const organizer = await lockOwnOrganizer(tx, accountId, organizerId);
  if (!organizer) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
  if (!questionId) throw new TRPCError({ code: "BAD_REQUEST", message: "Send question_id with organizer_id" });
  const question = findQuestion(organizer.template as Template, questionId);
  if (!question) throw new TRPCError({ code: "NOT_FOUND", message: QUESTION_NOT_FOUND });
  if (question.type !== "file") throw new TRPCError({ code: "BAD_REQUEST", message: NOT_A_FILE_QUESTION });
  if (!isOpenForAnswers(organizer.status)) throw new TRPCError({ code: "CONFLICT", message: NOT_OPEN_FOR_ANSWERS });
  return { organizer, question };
}

/**
 * In the upload's own transaction: checkOrganizerUpload again (the organizer stays locked until the
 * document naming it is written), and the account's folder for the organizer, made at its first
 * upload and named as the organizer, where the document goes.
 */
export async function organizerForUpload(
  tx: Db,
  accountId: string,
  organizerId: string,
  questionId: string | null,
  now: Date,
): Promise<{ id: string; title: string; question_id: string; folder_id: string }> {
  const { organizer, question } = await checkOrganizerUpload(tx, accountId, organizerId, questionId);
  let folderId = organizer.folder_id && (await folderExists(tx, accountId, organizer.folder_id)) ? organizer.folder_id : null;
  if (!folderId) {
    folderId = await rootFolderNamed(tx, accountId, organizer.title);
    await setOrganizerFolder(tx, organizer.id, folderId);
  }
  await touchOrganizer(tx, organizer.id, now);
  return { id: organizer.id, title: organizer.title, question_id: question.id, folder_id: folderId };
}

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
  const questions = topQuestions(template.template as Template);
  const header = ["Client", "Organizer", "Status", "Submitted at", ...questions.map((q) => q.label)];
  const rows: string[][] = [header];
  for (const organizer of await listTemplateOrganizersForFirm(ctx.db, ctx.firmScope, template.id)) {
    const [answers, documents] = await Promise.all([listAnswerRows(ctx.db, organizer.id), documentsByQuestion(ctx.db, organizer.id)]);
    const byId = new Map(answers.map((answer) => [answer.question_id, answer]));
    const own = organizer.template as Template;
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
        questions: topQuestions(organizer.template as Template).map((question) => {
          const files = question.type === "file" ? (documents[question.id] ?? []).map((d) => d.original_filename) : [];
          const row = byId.get(question.id);
          let answer: unknown = null;
          let text = files.join("; ");
          if (row && (row.value !== null || row.sealed !== null)) {
            const value = answerValue(ctx, row);
            answer = row.sealed !== null && view === "client" ? (value === null ? "••••" : maskValue(value)) : value;
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
