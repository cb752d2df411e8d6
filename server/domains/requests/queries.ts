import { sql } from "kysely";
import { containsPattern } from "../../db/search.ts";
import type { Db, DocumentRequestsTable } from "../../db/types.ts";
import type { AdminRequestListInput, RequestStatus } from "./schemas.ts";

const requestColumns = [
  "document_requests.id",
  "document_requests.title",
  "document_requests.description",
  "document_requests.due_date",
  "document_requests.status",
  "document_requests.folder_id",
  "folders.name as folder_name",
  "document_requests.comment",
  "document_requests.created_at",
  "document_requests.updated_at",
  "document_requests.submitted_at",
  "document_requests.done_at",
] as const;

function withFolder(db: Db) {
  return db.selectFrom("document_requests").leftJoin("folders", "folders.id", "document_requests.folder_id");
}

/** Open first (soonest due first, undated last), then submitted, then done; newest first within each. */
const STATUS_ORDER = sql<number>`case document_requests.status when 'open' then 0 when 'submitted' then 1 else 2 end`;

/** The user's own requests, open ones first. */
export function listUserRequests(db: Db, userId: string) {
  return withFolder(db)
    .select(requestColumns)
    .where("document_requests.user_id", "=", userId)
    .orderBy(STATUS_ORDER)
    .orderBy("document_requests.due_date", (order) => order.asc().nullsLast())
    .orderBy("document_requests.created_at", "desc")
    .orderBy("document_requests.id", "desc")
    .limit(500)
    .execute();
}

/** The live documents attached to these requests, oldest first. */
export function listAttachedDocuments(db: Db, requestIds: readonly string[]) {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("documents")
    .select(["id", "request_id", "original_filename", "file_size", "content_type", "upload_date"])
    .where("request_id", "in", requestIds)
    .where("deleted_at", "is", null)
    .orderBy("upload_date")
    .orderBy("id")
    .execute();
}

export function countAttachedDocuments(db: Db, requestId: string): Promise<number> {
  return db
    .selectFrom("documents")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("request_id", "=", requestId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow()
    .then((row) => row.count);
}

export async function insertRequest(
  db: Db,
  request: Pick<DocumentRequestsTable, "user_id" | "title" | "due_date" | "folder_id" | "created_by" | "early_reminder_for" | "due_reminder_for"> & {
    description: string;
    now: Date;
  },
): Promise<{ id: string }> {
  const { now, ...values } = request;
  return db
    .insertInto("document_requests")
    .values({ ...values, created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** One request and its client, locked for a change. */
function requestForChange(db: Db, id: string) {
  return db
    .selectFrom("document_requests")
    .innerJoin("users", "users.id", "document_requests.user_id")
    .select([
      "document_requests.id",
      "document_requests.user_id",
      "document_requests.title",
      "document_requests.status",
      "document_requests.folder_id",
      "users.username",
      "users.email",
    ])
    .where("document_requests.id", "=", id);
}

/** The user's own request and its client, locked for a change; another's is not found. */
export function lockRequest(db: Db, id: string, userId: string) {
  return requestForChange(db, id).where("document_requests.user_id", "=", userId).forUpdate("document_requests").executeTakeFirst();
}

/** Any client's request and its client, locked for a change by the firm. */
export function lockRequestForFirm(db: Db, id: string) {
  return requestForChange(db, id).forUpdate("document_requests").executeTakeFirst();
}

/**
 * The caller's own open request, for an upload against it: locked against a change of status
 * (FOR SHARE), so it is still open when the document row that names it is written.
 */
export function lockOpenRequestForUpload(db: Db, userId: string, id: string) {
  return db
    .selectFrom("document_requests")
    .select(["id", "status", "folder_id", "title"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .forShare()
    .executeTakeFirst();
}

export async function setRequestStatus(db: Db, id: string, change: { status: RequestStatus; comment?: string | null; now: Date }): Promise<void> {
  const { status, now } = change;
  await db
    .updateTable("document_requests")
    .set({
      status,
      updated_at: now,
      ...(change.comment !== undefined ? { comment: change.comment } : {}),
      submitted_at: status === "open" ? null : status === "submitted" ? now : sql`submitted_at`,
      done_at: status === "done" ? now : null,
    })
    .where("id", "=", id)
    .execute();
}

function adminRequests(db: Db, filter: Pick<AdminRequestListInput, "q" | "user_id" | "status">) {
  let query = withFolder(db).innerJoin("users", "users.id", "document_requests.user_id");
  if (filter.user_id) query = query.where("document_requests.user_id", "=", filter.user_id);
  if (filter.status) query = query.where("document_requests.status", "=", filter.status);
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    query = query.where((eb) =>
      eb.or([
        eb("document_requests.title", "ilike", pattern),
        eb("users.name", "ilike", pattern),
        eb("users.username", "ilike", pattern),
        eb("users.email", "ilike", pattern),
      ]),
    );
  }
  return query;
}

/** The firm's rows: the request, its client, and how many live documents are attached. */
function adminRequestRows(db: Db, filter: Pick<AdminRequestListInput, "q" | "user_id" | "status">) {
  return adminRequests(db, filter).select((eb) => [
    ...requestColumns,
    "document_requests.user_id",
    "users.username",
    "users.email",
    "users.name as client_name",
    eb
      .selectFrom("documents")
      .select(sql<number>`count(*)::int`.as("count"))
      .whereRef("documents.request_id", "=", "document_requests.id")
      .where("documents.deleted_at", "is", null)
      .as("document_count"),
  ]);
}

/** The firm's list: newest first, narrowed by client and status. */
export async function listAdminRequests(db: Db, page: AdminRequestListInput & { offset: number }) {
  const [items, count] = await Promise.all([
    adminRequestRows(db, page)
      .orderBy("document_requests.created_at", "desc")
      .orderBy("document_requests.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    adminRequests(db, page)
      .select(sql<number>`count(*)::int`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: count.total };
}

export function findAdminRequest(db: Db, id: string) {
  return adminRequestRows(db, {}).where("document_requests.id", "=", id).executeTakeFirst();
}

/**
 * Marks the open requests due between `from` and `to` (inclusive, firm dates) whose reminder of
 * this kind was not queued for their current due date as reminded, and returns them. One
 * statement: two sweeps at once cannot both take a request.
 */
export function takeDueRequestReminders(
  db: Db,
  column: "early_reminder_for" | "due_reminder_for",
  window: { from: string; to: string },
): Promise<Array<{ id: string; due_date: string | null }>> {
  return db
    .updateTable("document_requests")
    .set({ [column]: sql`due_date` })
    .where("status", "=", "open")
    .where("due_date", ">=", window.from)
    .where("due_date", "<=", window.to)
    .where(sql<boolean>`${sql.ref(column)} is distinct from due_date`)
    .returning(["id", "due_date"])
    .execute();
}

/** A client (not an admin) the firm may ask for documents. */
export async function findRequestClient(db: Db, userId: string) {
  return db.selectFrom("users").select(["id", "username", "email"]).where("id", "=", userId).where("is_admin", "=", false).executeTakeFirst();
}

/** The request and its client, as the mails about it name them. */
export async function findRequestForMail(db: Db, requestId: string) {
  return db
    .selectFrom("document_requests")
    .innerJoin("users", "users.id", "document_requests.user_id")
    .select([
      "document_requests.title",
      "document_requests.due_date",
      "document_requests.status",
      "users.name",
      "users.username",
      "users.email",
      "users.email_verified_at",
    ])
    .where("document_requests.id", "=", requestId)
    .executeTakeFirst();
}

/** The names of the request's live documents, oldest first. */
export async function listRequestDocumentNames(db: Db, requestId: string) {
  return db
    .selectFrom("documents")
    .select("original_filename")
    .where("request_id", "=", requestId)
    .where("deleted_at", "is", null)
    .orderBy("upload_date")
    .orderBy("id")
    .execute();
}
