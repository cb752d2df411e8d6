// Every statement of the organizers domain. A client's organizer is read with its account in the
// query (another account's is not found); the firm's with its firmScope (firm-scope.ts).
import { sql } from "kysely";
import type { Db, OrganizerStatus } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { Template } from "./schemas.ts";

// ---- templates

const templateColumns = [
  "organizer_templates.id",
  "organizer_templates.name",
  "organizer_templates.template",
  "organizer_templates.created_at",
  "organizer_templates.updated_at",
] as const;

function templateRows(db: Db) {
  return db
    .selectFrom("organizer_templates")
    .select(templateColumns)
    .select((eb) =>
      eb
        .selectFrom("organizers")
        .select(sql<number>`count(*)::int`.as("count"))
        .whereRef("organizers.template_id", "=", "organizer_templates.id")
        .as("organizer_count"),
    )
    .where("organizer_templates.archived_at", "is", null);
}

export function listTemplateRows(db: Db) {
  return templateRows(db)
    .orderBy((eb) => eb.fn("lower", ["organizer_templates.name"]))
    .orderBy("organizer_templates.id")
    .execute();
}

/** A template the firm has (not deleted). */
export function findTemplateRow(db: Db, id: string) {
  return templateRows(db).where("organizer_templates.id", "=", id).executeTakeFirst();
}

/** A template by id, deleted or not (the CSV of its answers outlives it): its name and current questions. */
export function findAnyTemplate(db: Db, id: string) {
  return db.selectFrom("organizer_templates").select(["id", "name", "template"]).where("id", "=", id).executeTakeFirst();
}

export function insertTemplate(db: Db, values: { name: string; template: Template; created_by: string; now: Date }) {
  return db
    .insertInto("organizer_templates")
    .values({
      name: values.name,
      template: JSON.stringify(values.template),
      created_by: values.created_by,
      created_at: values.now,
      updated_at: values.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

export function updateTemplateRow(db: Db, id: string, changes: { name?: string; template?: Template; now: Date }) {
  return db
    .updateTable("organizer_templates")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.template !== undefined ? { template: JSON.stringify(changes.template) } : {}),
      updated_at: changes.now,
    })
    .where("id", "=", id)
    .where("archived_at", "is", null)
    .returning("name")
    .executeTakeFirst();
}

export function archiveTemplate(db: Db, id: string, now: Date) {
  return db
    .updateTable("organizer_templates")
    .set({ archived_at: now, updated_at: now })
    .where("id", "=", id)
    .where("archived_at", "is", null)
    .returning("name")
    .executeTakeFirst();
}

// ---- organizers

const organizerColumns = [
  "organizers.id",
  "organizers.account_id",
  "organizers.template_id",
  "organizers.template",
  "organizers.title",
  "organizers.due_date",
  "organizers.status",
  "organizers.folder_id",
  "organizers.reopen_comment",
  "organizers.created_at",
  "organizers.sent_at",
  "organizers.submitted_at",
  "organizers.updated_at",
] as const;

export function insertOrganizer(
  db: Db,
  values: {
    account_id: string;
    template_id: string;
    template: Template;
    title: string;
    due_date: string | null;
    status: OrganizerStatus;
    created_by: string;
    now: Date;
  },
) {
  return db
    .insertInto("organizers")
    .values({
      account_id: values.account_id,
      template_id: values.template_id,
      template: JSON.stringify(values.template),
      title: values.title,
      due_date: values.due_date,
      status: values.status,
      created_by: values.created_by,
      created_at: values.now,
      updated_at: values.now,
      sent_at: values.status === "sent" ? values.now : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** The account's organizer (never a draft: the client does not see one before it is sent). */
function ownOrganizer(db: Db, accountId: string, id: string) {
  return db
    .selectFrom("organizers")
    .select(organizerColumns)
    .where("organizers.id", "=", id)
    .where("organizers.account_id", "=", accountId)
    .where("organizers.status", "!=", "draft");
}

export function findOwnOrganizer(db: Db, accountId: string, id: string) {
  return ownOrganizer(db, accountId, id).executeTakeFirst();
}

/** Locked until the transaction ends: the account's saves, submits and uploads of one organizer take turns. */
export function lockOwnOrganizer(db: Db, accountId: string, id: string) {
  return ownOrganizer(db, accountId, id).forUpdate().executeTakeFirst();
}

export function listOwnOrganizers(db: Db, accountId: string) {
  return db
    .selectFrom("organizers")
    .select(organizerColumns)
    .select((eb) =>
      eb
        .selectFrom("organizer_answers")
        .select(sql<number>`count(*)::int`.as("count"))
        .whereRef("organizer_answers.organizer_id", "=", "organizers.id")
        .where((w) => w.or([w("organizer_answers.value", "is not", null), w("organizer_answers.sealed", "is not", null)]))
        .as("answered"),
    )
    .where("organizers.account_id", "=", accountId)
    .where("organizers.status", "!=", "draft")
    .orderBy("organizers.created_at", "desc")
    .orderBy("organizers.id", "desc")
    .execute();
}

/** Every organizer of an account for its export, oldest first; drafts (never sent) only when asked for. */
export function listAccountOrganizersForExport(db: Db, accountId: string, drafts: boolean) {
  let query = db.selectFrom("organizers").select(organizerColumns).where("organizers.account_id", "=", accountId);
  if (!drafts) query = query.where("organizers.status", "!=", "draft");
  return query.orderBy("organizers.created_at").orderBy("organizers.id").execute();
}

function firmOrganizers(db: Db, scope: FirmScope) {
  return db
    .selectFrom("organizers")
    .innerJoin("accounts", "accounts.id", "organizers.account_id")
    .leftJoin("organizer_templates", "organizer_templates.id", "organizers.template_id")
    .where(inFirmScope(scope, "organizers.account_id"));
}

function firmOrganizerRows(db: Db, scope: FirmScope) {
  return firmOrganizers(db, scope).select(organizerColumns).select(["accounts.name as client_label", "organizer_templates.name as template_name"]);
}

export function findOrganizerForFirm(db: Db, scope: FirmScope, id: string) {
  return firmOrganizerRows(db, scope).where("organizers.id", "=", id).executeTakeFirst();
}

export function lockOrganizerForFirm(db: Db, scope: FirmScope, id: string) {
  return firmOrganizerRows(db, scope).where("organizers.id", "=", id).forUpdate("organizers").executeTakeFirst();
}

export async function listOrganizersForFirm(
  db: Db,
  scope: FirmScope,
  filter: { account_id?: string; template_id?: string; status?: OrganizerStatus; limit: number; offset: number },
) {
  let rows = firmOrganizerRows(db, scope);
  let count = firmOrganizers(db, scope);
  if (filter.account_id) {
    rows = rows.where("organizers.account_id", "=", filter.account_id);
    count = count.where("organizers.account_id", "=", filter.account_id);
  }
  if (filter.template_id) {
    rows = rows.where("organizers.template_id", "=", filter.template_id);
    count = count.where("organizers.template_id", "=", filter.template_id);
  }
  if (filter.status) {
    rows = rows.where("organizers.status", "=", filter.status);
    count = count.where("organizers.status", "=", filter.status);
  }
  const [items, total] = await Promise.all([
    rows.orderBy("organizers.created_at", "desc").orderBy("organizers.id", "desc").limit(filter.limit).offset(filter.offset).execute(),
    count.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow(),
  ]);
  return { items, total: total.total };
}

/** Every organizer of one template the scope reaches, oldest first: the CSV's rows. */
export function listTemplateOrganizersForFirm(db: Db, scope: FirmScope, templateId: string) {
  return firmOrganizerRows(db, scope)
    .where("organizers.template_id", "=", templateId)
    .where("organizers.status", "!=", "draft")
    .orderBy("accounts.name")
    .orderBy("organizers.created_at")
    .orderBy("organizers.id")
    .execute();
}

export function setOrganizerStatus(
  db: Db,
  id: string,
  changes: { status: OrganizerStatus; now: Date; submitted_at?: Date | null; sent_at?: Date; reopen_comment?: string | null },
) {
  return db
    .updateTable("organizers")
    .set({
      status: changes.status,
      updated_at: changes.now,
      ...(changes.submitted_at !== undefined ? { submitted_at: changes.submitted_at } : {}),
      ...(changes.sent_at !== undefined ? { sent_at: changes.sent_at } : {}),
      ...(changes.reopen_comment !== undefined ? { reopen_comment: changes.reopen_comment } : {}),
    })
    .where("id", "=", id)
    .execute();
}

export function touchOrganizer(db: Db, id: string, now: Date) {
  return db.updateTable("organizers").set({ updated_at: now }).where("id", "=", id).execute();
}

/** The account's latest submitted organizer of this template, other than `exceptId`: last year's, whose answers pre-fill. */
export function findLastSubmitted(db: Db, accountId: string, templateId: string) {
  return db
    .selectFrom("organizers")
    .select(["id", "template"])
    .where("account_id", "=", accountId)
    .where("template_id", "=", templateId)
    .where("submitted_at", "is not", null)
    .where("status", "=", "submitted")
    .orderBy("submitted_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export function setOrganizerFolder(db: Db, id: string, folderId: string) {
  return db.updateTable("organizers").set({ folder_id: folderId }).where("id", "=", id).execute();
}

/** The account's root folder of this name, made if missing (two uploads side by side find the same one). */
export async function rootFolderNamed(db: Db, accountId: string, name: string): Promise<string> {
  await db
    .insertInto("folders")
    .values({ account_id: accountId, parent_folder_id: null, name, color: "#3B82F6" })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const folder = await db
    .selectFrom("folders")
    .select("id")
    .where("account_id", "=", accountId)
    .where("parent_folder_id", "is", null)
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
    .executeTakeFirstOrThrow();
  return folder.id;
}

export function folderExists(db: Db, accountId: string, folderId: string) {
  return db.selectFrom("folders").select("id").where("id", "=", folderId).where("account_id", "=", accountId).executeTakeFirst();
}

// ---- answers

const answerColumns = ["question_id", "value", "sealed", "from_last_year", "reviewed_at", "reviewed_by", "version", "updated_at"] as const;

export function listAnswerRows(db: Db, organizerId: string) {
  return db
    .selectFrom("organizer_answers")
    .leftJoin("users", "users.id", "organizer_answers.reviewed_by")
    .select(answerColumns.map((c) => `organizer_answers.${c}` as const))
    .select("users.name as reviewed_by_name")
    .where("organizer_answers.organizer_id", "=", organizerId)
    .execute();
}
export type AnswerRow = Awaited<ReturnType<typeof listAnswerRows>>[number];

/**
 * One answer written: a new row, or the row of that question changed (its version raised, the
 * firm's reviewed mark and last year's mark dropped). Only this question's row is touched, so a
 * save of other questions side by side loses nothing.
 */
export function upsertAnswer(db: Db, organizerId: string, questionId: string, stored: { value: string | null; sealed: string | null }, now: Date) {
  return db
    .insertInto("organizer_answers")
    .values({ organizer_id: organizerId, question_id: questionId, value: stored.value, sealed: stored.sealed, updated_at: now })
    .onConflict((oc) =>
      oc.columns(["organizer_id", "question_id"]).doUpdateSet({
        value: stored.value,
        sealed: stored.sealed,
        from_last_year: false,
        reviewed_at: null,
        reviewed_by: null,
        version: sql<number>`organizer_answers.version + 1`,
        updated_at: now,
      }),
    )
    .execute();
}

/** Last year's answers copied into a new organizer, marked as such. */
export async function insertCopiedAnswers(
  db: Db,
  organizerId: string,
  rows: Array<{ question_id: string; value: unknown; sealed: string | null }>,
  now: Date,
) {
  if (rows.length === 0) return;
  await db
    .insertInto("organizer_answers")
    .values(
      rows.map((row) => ({
        organizer_id: organizerId,
        question_id: row.question_id,
        value: row.sealed === null ? JSON.stringify(row.value) : null,
        sealed: row.sealed,
        from_last_year: true,
        updated_at: now,
      })),
    )
    .execute();
}

/** The client confirms last year's answer as it is. */
export function confirmAnswer(db: Db, organizerId: string, questionId: string, now: Date) {
  return db
    .updateTable("organizer_answers")
    .set({ from_last_year: false, version: sql<number>`version + 1`, updated_at: now })
    .where("organizer_id", "=", organizerId)
    .where("question_id", "=", questionId)
    .execute();
}

export function deleteAnswers(db: Db, organizerId: string, questionIds: string[]) {
  if (questionIds.length === 0) return Promise.resolve();
  return db.deleteFrom("organizer_answers").where("organizer_id", "=", organizerId).where("question_id", "in", questionIds).execute();
}

/** Sets or clears the firm's reviewed mark; a question not answered yet (a file question) gets an empty row to hold it. */
export async function setReviewed(db: Db, organizerId: string, questionId: string, by: string | null, now: Date) {
  await db
    .insertInto("organizer_answers")
    .values({
      organizer_id: organizerId,
      question_id: questionId,
      value: null,
      sealed: null,
      reviewed_at: by ? now : null,
      reviewed_by: by,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["organizer_id", "question_id"]).doUpdateSet({ reviewed_at: by ? now : null, reviewed_by: by }))
    .execute();
}

// ---- documents

/** The live documents uploaded as answers to this organizer's file questions, oldest first. */
export function listOrganizerDocuments(db: Db, organizerId: string) {
  return db
    .selectFrom("documents")
    .select(["id", "organizer_question_id", "original_filename", "file_size", "upload_date"])
    .where("organizer_id", "=", organizerId)
    .where("deleted_at", "is", null)
    .orderBy("upload_date")
    .orderBy("id")
    .execute();
}

// ---- mail

export function findOrganizerForMail(db: Db, id: string) {
  return db
    .selectFrom("organizers")
    .innerJoin("accounts", "accounts.id", "organizers.account_id")
    .select([
      "organizers.id",
      "organizers.account_id",
      "organizers.title",
      "organizers.due_date",
      "organizers.status",
      "accounts.name as account_name",
    ])
    .where("organizers.id", "=", id)
    .executeTakeFirst();
}

/**
 * The organizers still waiting for the client (sent or reopened) due between `from` and `to` whose
 * reminder has not gone out for that due date; marks each as reminded in the same statement, so two
 * instances never both take one (jobs/organizer-reminders.ts).
 */
export function takeDueOrganizerReminders(db: Db, window: { from: string; to: string }) {
  return db
    .updateTable("organizers")
    .set({ due_reminder_for: sql`due_date` })
    .where("status", "in", ["sent", "reopened"])
    .where("due_date", ">=", window.from)
    .where("due_date", "<=", window.to)
    .where(sql<boolean>`due_reminder_for is distinct from due_date`)
    .returning(["id", "due_date"])
    .execute();
}
