// The client's side of organizers (issue 36; docs/decisions.md, "Organizers"): their own organizers, partial
// saves, submit and take back, and the file answers documents/upload.ts stores. The mail of each change
// is queued, and its trail entry written, in the change's own transaction.
import { TRPCError } from "@trpc/server";
import { RequestRefused } from "../../trpc/errors.ts";
import { accountClient, recordActivity } from "../activity/record.ts";
import { addToInbox } from "../inbox/queries.ts";
import type { Db } from "../../db/types.ts";
import type { ClientContext } from "../../trpc/context.ts";
import {
  confirmAnswer,
  deleteAnswers,
  findOwnOrganizer,
  folderExists,
  listAnswerRows,
  listOrganizerDocuments,
  listOwnOrganizers,
  lockOwnOrganizer,
  rootFolderNamed,
  setOrganizerFolder,
  setOrganizerStatus,
  touchOrganizer,
  upsertAnswer,
} from "./queries.ts";
import {
  checkValue,
  findQuestion,
  isEmpty,
  answerRefusal,
  type KeptEntry,
  MASKED,
  maskValue,
  missingRequired,
  pruneGroup,
  resolveKept,
  topQuestions,
  unaskedAnswer,
  visibleIds,
} from "./rules.ts";
import {
  ALREADY_SUBMITTED,
  ANSWER_NOT_SAVED,
  type AnswerOutput,
  type ClientOrganizer,
  type ClientOrganizerListItem,
  NOT_A_FILE_QUESTION,
  NOT_OPEN_FOR_ANSWERS,
  NOT_SUBMITTED,
  ORGANIZER_NOT_FOUND,
  QUESTION_NOT_FOUND,
  REQUIRED_UNANSWERED,
} from "./schemas.ts";
import { sealAnswer } from "./sealing.ts";
import { answerBase, answerValue, documentsByQuestion, type SealingContext } from "./common.ts";

// ---- the client's

export async function listOwn(ctx: ClientContext): Promise<ClientOrganizerListItem[]> {
  const rows = await listOwnOrganizers(ctx.db, ctx.account.id);
  return rows.map(({ template, folder_id: _folder, answered, ...row }) => ({
    ...row,
    answered: answered ?? 0,
    questions: topQuestions(template).length,
  }));
}

/** The client's organizer: sensitive answers masked, even the one just typed (docs/decisions.md, "Organizers"). */
export async function getOwn(ctx: ClientContext, input: { id: string }): Promise<ClientOrganizer> {
  const row = await findOwnOrganizer(ctx.db, ctx.account.id, input.id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: ORGANIZER_NOT_FOUND });
  const template = row.template;
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
        return { ...base, value: null, masked: value === null ? MASKED : maskValue(value) };
      }),
    documents,
  };
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
    const template = organizer.template;
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
    const template = organizer.template;
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
  const question = findQuestion(organizer.template, questionId);
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
