import { sql } from "kysely";
import { containsPattern } from "../../db/search.ts";
import type { Db, DocumentRequestsTable } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
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

/** The account's requests, open ones first. */
export function listAccountRequests(db: Db, accountId: string) {
  return withFolder(db)
    .select(requestColumns)
    .where("document_requests.account_id", "=", accountId)
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
    .select(["id", "request_id", "request_item_id", "original_filename", "file_size", "content_type", "upload_date"])
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
  request: Pick<
    DocumentRequestsTable,
    "account_id" | "title" | "due_date" | "folder_id" | "created_by" | "early_reminder_for" | "due_reminder_for"
  > & {
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
    .innerJoin("accounts", "accounts.id", "document_requests.account_id")
    .select([
      "document_requests.id",
      "document_requests.account_id",
      "document_requests.title",
      "document_requests.status",
      "document_requests.folder_id",
      "accounts.name",
    ])
    .where("document_requests.id", "=", id);
}

/** The account's own request, locked for a change; another's is not found. */
export function lockRequest(db: Db, id: string, accountId: string) {
  return requestForChange(db, id).where("document_requests.account_id", "=", accountId).forUpdate("document_requests").executeTakeFirst();
}

/** A client's request the asker reaches (firm-scope.ts) and its client, locked for a change by the firm. */
export function lockRequestForFirm(db: Db, scope: FirmScope, id: string) {
  return requestForChange(db, id).where(inFirmScope(scope, "document_requests.account_id")).forUpdate("document_requests").executeTakeFirst();
}

/**
 * The caller's own open request, for an upload against it: locked against a change of status
 * (FOR SHARE), so it is still open when the document row that names it is written.
 */
export function lockOpenRequestForUpload(db: Db, accountId: string, id: string) {
  return db
    .selectFrom("document_requests")
    .select(["id", "status", "folder_id", "title"])
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .forShare()
    .executeTakeFirst();
}

export async function setRequestStatus(
  db: Db,
  id: string,
  change: { status: RequestStatus; comment?: string | null; now: Date; submittedBy?: string },
): Promise<void> {
  const { status, now } = change;
  await db
    .updateTable("document_requests")
    .set({
      status,
      ...(change.submittedBy ? { submitted_by: change.submittedBy } : {}),
      updated_at: now,
      ...(change.comment !== undefined ? { comment: change.comment } : {}),
      submitted_at: status === "open" ? null : status === "submitted" ? now : sql`submitted_at`,
      done_at: status === "done" ? now : null,
    })
    .where("id", "=", id)
    .execute();
}

// The firm's rows name the account by its first owner (the view account_owners), as they named the
// client person before; an account nobody has joined yet by its own name.
function adminRequests(db: Db, scope: FirmScope, filter: Pick<AdminRequestListInput, "q" | "status"> & { accountId?: string }) {
  let query = withFolder(db)
    .innerJoin("accounts", "accounts.id", "document_requests.account_id")
    .leftJoin("account_owners as users", "users.account_id", "document_requests.account_id")
    .where(inFirmScope(scope, "document_requests.account_id"));
  if (filter.accountId) query = query.where("document_requests.account_id", "=", filter.accountId);
  if (filter.status) query = query.where("document_requests.status", "=", filter.status);
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    query = query.where((eb) =>
      eb.or([
        eb("document_requests.title", "ilike", pattern),
        eb("accounts.name", "ilike", pattern),
        eb("users.name", "ilike", pattern),
        eb("users.username", "ilike", pattern),
        eb("users.email", "ilike", pattern),
      ]),
    );
  }
  return query;
}

/** The firm's rows: the request, its client, and how many live documents are attached. */
function adminRequestRows(db: Db, scope: FirmScope, filter: Pick<AdminRequestListInput, "q" | "status"> & { accountId?: string }) {
  return adminRequests(db, scope, filter).select((eb) => [
    ...requestColumns,
    "document_requests.account_id",
    sql<string>`coalesce(users.id, document_requests.account_id)`.as("user_id"),
    "users.username",
    sql<string>`coalesce(users.email, accounts.name)`.as("email"),
    sql<string>`coalesce(users.name, accounts.name)`.as("client_name"),
    eb
      .selectFrom("documents")
      .select(sql<number>`count(*)::int`.as("count"))
      .whereRef("documents.request_id", "=", "document_requests.id")
      .where("documents.deleted_at", "is", null)
      .as("document_count"),
  ]);
}

/** The firm's list: newest first, narrowed by client and status. */
export async function listAdminRequests(
  db: Db,
  scope: FirmScope,
  page: Omit<AdminRequestListInput, "user_id" | "account_id"> & { accountId?: string; offset: number },
) {
  const [items, count] = await Promise.all([
    adminRequestRows(db, scope, page)
      .orderBy("document_requests.created_at", "desc")
      .orderBy("document_requests.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    adminRequests(db, scope, page)
      .select(sql<number>`count(*)::int`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: count.total };
}

export function findAdminRequest(db: Db, scope: FirmScope, id: string) {
  return adminRequestRows(db, scope, {}).where("document_requests.id", "=", id).executeTakeFirst();
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

/**
 * The request and its account, as the mails about it name them: the person who submitted it (else
 * the account's first owner, else the account) for the firm's mail; the client's go to the
 * account's notify contacts (accountMailRecipients).
 */
export async function findRequestForMail(db: Db, requestId: string) {
  return db
    .selectFrom("document_requests")
    .innerJoin("accounts", "accounts.id", "document_requests.account_id")
    .leftJoin("users as submitter", "submitter.id", "document_requests.submitted_by")
    .leftJoin("account_owners as owner", "owner.account_id", "document_requests.account_id")
    .select([
      "document_requests.title",
      "document_requests.due_date",
      "document_requests.status",
      "document_requests.account_id",
      sql<string>`coalesce(submitter.name, owner.name, accounts.name)`.as("name"),
      sql<string | null>`coalesce(submitter.username, owner.username)`.as("username"),
      sql<string>`coalesce(submitter.email, owner.email, '')`.as("email"),
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

// The checklist (issue 34): a request's items, the documents attached to each, and the firm's
// templates.

/** A new request's items, in the order given. */
export async function insertRequestItems(db: Db, requestId: string, titles: readonly string[], now: Date): Promise<void> {
  if (titles.length === 0) return;
  await db
    .insertInto("document_request_items")
    .values(titles.map((title, position) => ({ request_id: requestId, position, title, created_at: now })))
    .execute();
}

/** The items of these requests, in their order. */
export function listRequestItems(db: Db, requestIds: readonly string[]) {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("document_request_items")
    .select(["id", "request_id", "title", "status", "done_at"])
    .where("request_id", "in", requestIds)
    .orderBy("request_id")
    .orderBy("position")
    .execute();
}

/** The titles of the request's items still needed: open, with no live document (what "Needed" means on the page). */
export async function listNeededItemTitles(db: Db, requestId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("document_request_items as item")
    .select("item.title")
    .where("item.request_id", "=", requestId)
    .where("item.status", "=", "open")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("documents")
            .select("documents.id")
            .whereRef("documents.request_item_id", "=", "item.id")
            .where("documents.deleted_at", "is", null),
        ),
      ),
    )
    .orderBy("item.position")
    .execute();
  return rows.map((row) => row.title);
}

/** The request's items, for its mail. */
export function listRequestItemTitles(db: Db, requestId: string) {
  return db.selectFrom("document_request_items").select(["id", "title", "status"]).where("request_id", "=", requestId).orderBy("position").execute();
}

/**
 * An item of the account's request, with the request's status, locked against a change of either
 * (FOR SHARE) for an upload, or for a change of the item (FOR UPDATE of the item). Another account's
 * item, or an item of another request, is not found.
 */
function itemOfAccount(db: Db, accountId: string, requestId: string, itemId: string) {
  return db
    .selectFrom("document_request_items")
    .innerJoin("document_requests", "document_requests.id", "document_request_items.request_id")
    .select([
      "document_request_items.id",
      "document_request_items.title",
      "document_request_items.status",
      "document_requests.status as request_status",
      "document_requests.title as request_title",
    ])
    .where("document_request_items.id", "=", itemId)
    .where("document_request_items.request_id", "=", requestId)
    .where("document_requests.account_id", "=", accountId);
}

export function lockItemForUpload(db: Db, accountId: string, requestId: string, itemId: string) {
  return itemOfAccount(db, accountId, requestId, itemId).forShare().executeTakeFirst();
}

export function lockItemForClientChange(db: Db, accountId: string, requestId: string, itemId: string) {
  return itemOfAccount(db, accountId, requestId, itemId).forUpdate().executeTakeFirst();
}

/** An item of a request the asker reaches (firm-scope.ts), with its request and client, locked for the firm's change. */
export function lockItemForFirm(db: Db, scope: FirmScope, requestId: string, itemId: string) {
  return db
    .selectFrom("document_request_items")
    .innerJoin("document_requests", "document_requests.id", "document_request_items.request_id")
    .innerJoin("accounts", "accounts.id", "document_requests.account_id")
    .select([
      "document_request_items.id",
      "document_request_items.title",
      "document_request_items.status",
      "document_requests.id as request_id",
      "document_requests.title as request_title",
      "document_requests.status as request_status",
      "document_requests.account_id",
      "accounts.name",
    ])
    .where("document_request_items.id", "=", itemId)
    .where("document_request_items.request_id", "=", requestId)
    .where(inFirmScope(scope, "document_requests.account_id"))
    .forUpdate("document_request_items")
    .executeTakeFirst();
}

export async function setItemStatus(db: Db, itemId: string, status: "open" | "done", now: Date): Promise<void> {
  await db
    .updateTable("document_request_items")
    .set({ status, done_at: status === "done" ? now : null })
    .where("id", "=", itemId)
    .execute();
}

/**
 * Takes the account's live document off the item and moves it to the trash (out of its folder,
 * which is remembered for a restore); a restore then brings it back as an ordinary document, not to
 * the item. A document that also answers an organizer's question (one upload serving both, issue
 * 48) only leaves the item: the organizer keeps it. Nothing for a document that is not on that item.
 */
export function detachAndTrashItemDocument(db: Db, accountId: string, itemId: string, documentId: string, now: Date) {
  const trashed = sql<boolean>`organizer_id is null`;
  return db
    .updateTable("documents")
    .set({
      request_item_id: null,
      request_id: null,
      deleted_at: sql`case when ${trashed} then ${now}::timestamptz end`,
      trashed_from_folder_id: sql`case when ${trashed} then folder_id end`,
      folder_id: sql`case when ${trashed} then null else folder_id end`,
    })
    .where("id", "=", documentId)
    .where("account_id", "=", accountId)
    .where("request_item_id", "=", itemId)
    .where("deleted_at", "is", null)
    .returning(["id", "account_id", "original_filename", "deleted_at"])
    .executeTakeFirst();
}

const templateColumns = ["id", "title", "description", "items", "created_at", "updated_at"] as const;

/** The firm's templates by title. */
export function listRequestTemplates(db: Db) {
  return db
    .selectFrom("request_templates")
    .select(templateColumns)
    .orderBy(sql`lower(title)`)
    .orderBy("id")
    .limit(500)
    .execute();
}

export function findRequestTemplate(db: Db, id: string) {
  return db.selectFrom("request_templates").select(templateColumns).where("id", "=", id).executeTakeFirst();
}

export function insertRequestTemplate(db: Db, template: { title: string; description: string; items: string[]; created_by: string; now: Date }) {
  const { now, items, ...values } = template;
  return db
    .insertInto("request_templates")
    .values({ ...values, items: JSON.stringify(items), created_at: now, updated_at: now })
    .returning(templateColumns)
    .executeTakeFirstOrThrow();
}

export function updateRequestTemplateRow(db: Db, id: string, changes: { title?: string; description?: string; items?: string[]; now: Date }) {
  const { now, items, ...values } = changes;
  return db
    .updateTable("request_templates")
    .set({ ...values, ...(items ? { items: JSON.stringify(items) } : {}), updated_at: now })
    .where("id", "=", id)
    .returning(templateColumns)
    .executeTakeFirst();
}

export function deleteRequestTemplateRow(db: Db, id: string) {
  return db.deleteFrom("request_templates").where("id", "=", id).returning(["id", "title"]).executeTakeFirst();
}
