import { type Insertable, sql, type Transaction, type Updateable } from "kysely";
import { containsPattern } from "../../db/search.ts";
import type { Database, Db, DocumentsTable } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { DocumentItem, DocumentSearchInput } from "./schemas.ts";

/**
 * Shared by the firm: uploaded by someone at the firm (null uploaded_by: the client's own, from
 * before the column). Not "someone other than the account": every contact uploads as the client.
 */
export const fromFirm = sql<boolean>`coalesce((select u.is_admin from users u where u.id = documents.uploaded_by), false)`.as("from_firm");
/**
 * Who uploaded it, as the account's people see it (docs/decisions.md, "An account's people"): the
 * person's name for one of theirs, "From your firm" for the firm's (its people are not named to
 * clients), null when nobody is known (an upload from before the column, or a person since deleted).
 */
export const uploadedByName = sql<
  string | null
>`(select case when u.is_admin then 'From your firm' else coalesce(nullif(u.name, ''), u.username, u.email) end from users u where u.id = documents.uploaded_by)`.as(
  "uploaded_by_name",
);
const documentColumns = ["id", "original_filename", "upload_date", "file_size", "folder_id", "content_type", fromFirm, uploadedByName] as const;

/** A document as the trail names it (activity.ts). */
export type DocumentRef = { id: string; account_id: string; original_filename: string };

/** What a download needs: the display name and type, the size, and where the content is. */
export type StoredDocument = Pick<DocumentItem, "id" | "original_filename" | "content_type" | "file_size"> & {
  storage_key: string;
  account_id: string;
};

/**
 * Whether a person of the account sees the document (`table`: its alias in the query). Every read
 * path of a client person goes through it; the firm's do not. A PDF the firm uploaded for a
 * signature request not sent yet is the firm's alone (docs/decisions.md, "A PDF for a signature
 * request waits for the request"); a document in another person's private folder, or trashed from
 * one, is that person's and the firm's (docs/decisions.md, "Private folders").
 */
export function documentSeenBy(personId: string, table = "documents") {
  return sql<boolean>`(not ${sql.ref(`${table}.held_for_signature`)} and not exists (
    select 1 from folders pf
    where pf.id = coalesce(${sql.ref(`${table}.folder_id`)}, ${sql.ref(`${table}.trashed_from_folder_id`)})
      and pf.is_private and pf.private_to is distinct from ${personId}::uuid
  ))`;
}

function documentsIn(db: Db, accountId: string, folderId: string | null) {
  return db
    .selectFrom("documents")
    .select(documentColumns)
    .where("account_id", "=", accountId)
    .where("folder_id", folderId === null ? "is" : "=", folderId)
    .where("deleted_at", "is", null)
    .orderBy("upload_date", "desc")
    .orderBy("id", "desc");
}

/** The account's documents in one folder, or in the root when `folderId` is null, as the person sees them. */
export async function listDocuments(db: Db, accountId: string, personId: string, folderId: string | null): Promise<DocumentItem[]> {
  return documentsIn(db, accountId, folderId).where(documentSeenBy(personId)).execute();
}

/** The account's documents in one folder, or in the root when `folderId` is null, for the firm: all of them. */
export async function listDocumentsForFirm(db: Db, accountId: string, folderId: string | null): Promise<DocumentItem[]> {
  return documentsIn(db, accountId, folderId).execute();
}

const SEARCH_ORDER = {
  name: sql`lower(original_filename)`,
  date: sql`upload_date`,
  size: sql`file_size`,
} as const;

/** Search text as a full-text query: websearch syntax, which never fails on what a person types. */
const textQuery = (q: string) => sql`websearch_to_tsquery('english'::regconfig, ${q})`;

/**
 * The account's live documents matching `q` (all of them without one) and the filters, in the
 * asked order: part of the filename (as before content search, the trigram index), or its words
 * in the name or in the text inside (search_vector, name weighted above content; its GIN index).
 * `matched_in` says which, from the row's own name, never from its text.
 */
export function searchDocumentsQuery(db: Db, accountId: string, personId: string, input: DocumentSearchInput) {
  const q = input.q || undefined;
  const pattern = q ? containsPattern(q) : "";
  const nameMatches = q
    ? sql<boolean>`(original_filename ilike ${pattern} or to_tsvector('english'::regconfig, original_filename) @@ ${textQuery(q)})`
    : sql<boolean>`null`;
  let query = db
    .selectFrom("documents")
    .select([
      ...documentColumns,
      sql<"name" | "content" | null>`case when ${nameMatches} then 'name' when ${nameMatches} is null then null else 'content' end`.as("matched_in"),
    ])
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .where(documentSeenBy(personId));
  if (q) query = query.where(sql<boolean>`(original_filename ilike ${pattern} or search_vector @@ ${textQuery(q)})`);
  if (input.source) {
    const byFirm = sql<boolean>`exists (select 1 from users u where u.id = documents.uploaded_by and u.is_admin)`;
    query = query.where(input.source === "firm" ? byFirm : sql<boolean>`not ${byFirm}`);
  }
  if (input.year !== undefined) {
    query = query
      .where("upload_date", ">=", new Date(Date.UTC(input.year, 0, 1)))
      .where("upload_date", "<", new Date(Date.UTC(input.year + 1, 0, 1)));
  }
  if (input.sort === "relevance") {
    // A name match first, then ts_rank's weights (A, the name, above B, the content), then newest.
    // Without search text: newest first, as the default order.
    if (q) query = query.orderBy(sql`${nameMatches}`, "desc").orderBy(sql`ts_rank(search_vector, ${textQuery(q)})`, "desc");
    return query.orderBy("upload_date", "desc").orderBy("id", "desc").limit(input.limit);
  }
  return query.orderBy(SEARCH_ORDER[input.sort], input.order).orderBy("id", input.order).limit(input.limit);
}

/** Renames or moves one of the account's live documents; undefined when there is no such document. */
export async function updateDocumentRow(
  db: Db,
  accountId: string,
  personId: string,
  id: string,
  changes: Pick<Updateable<DocumentsTable>, "original_filename" | "folder_id">,
): Promise<DocumentItem | undefined> {
  return db
    .updateTable("documents")
    .set(changes)
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .where(documentSeenBy(personId))
    .returning(documentColumns)
    .executeTakeFirst();
}

/**
 * The live documents the account has in the given folders, or in all of them and the root when
 * `folderIds` is null: those `personId` sees, or all of them for the firm (null).
 */
export async function liveDocumentsIn(db: Db, accountId: string, personId: string | null, folderIds: readonly string[] | null) {
  let query = db
    .selectFrom("documents")
    .select(["id", "original_filename", "folder_id", "storage_key", "upload_date"])
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null);
  if (personId !== null) query = query.where(documentSeenBy(personId));
  if (folderIds !== null) {
    if (folderIds.length === 0) return [];
    query = query.where("folder_id", "in", folderIds);
  }
  return query.orderBy("upload_date").orderBy("id").execute();
}

/** The sum of the sizes of an account's documents (an index-only scan of documents_user_size_idx). */
export async function storedBytes(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom("documents")
    .select(sql<number>`coalesce(sum(file_size), 0)::bigint`.as("used"))
    .where("account_id", "=", accountId)
    .executeTakeFirstOrThrow();
  return row.used;
}

/** The account's own quota (null: the firm's default); undefined when the account is gone. */
export async function findStorageQuota(db: Db, accountId: string): Promise<{ storage_quota_mb: number | null } | undefined> {
  return db.selectFrom("accounts").select("storage_quota_mb").where("id", "=", accountId).executeTakeFirst();
}

/**
 * The same, with the account row locked until the transaction ends, so that one account's uploads
 * (by any of its people) check and record their sizes one at a time. NO KEY UPDATE, not UPDATE: it
 * does not block the foreign-key checks of the account's other inserts (folders, appointments).
 */
export async function lockStorageQuota(db: Transaction<Database>, accountId: string): Promise<{ storage_quota_mb: number | null } | undefined> {
  return db.selectFrom("accounts").select("storage_quota_mb").where("id", "=", accountId).forNoKeyUpdate().executeTakeFirst();
}

export async function insertDocument(db: Db, row: Insertable<DocumentsTable>): Promise<DocumentItem> {
  return db.insertInto("documents").values(row).returning(documentColumns).executeTakeFirstOrThrow();
}

/**
 * The account's live document with these bytes that answers the other kind of question: for an
 * upload to a request, one uploaded for an organizer and on no request; for an upload to an
 * organizer's question, one on a request and answering no organizer (issue 48: one file, not two).
 */
export function findAnswerWithSameBytes(db: Db, accountId: string, sha256: string, for_: "request" | "organizer") {
  const query = db
    .selectFrom("documents")
    .select("id")
    .where("account_id", "=", accountId)
    .where("sha256", "=", sha256)
    .where("deleted_at", "is", null);
  return (
    for_ === "request"
      ? query.where("organizer_id", "is not", null).where("request_id", "is", null)
      : query.where("request_id", "is not", null).where("organizer_id", "is", null)
  )
    .orderBy("upload_date")
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** Puts a document on a request's item, or on an organizer's question, as well (findAnswerWithSameBytes). */
export function linkDocumentAnswer(
  db: Db,
  id: string,
  place: { request_id: string; request_item_id: string | null } | { organizer_id: string; organizer_question_id: string },
): Promise<DocumentItem> {
  return db.updateTable("documents").set(place).where("id", "=", id).returning(documentColumns).executeTakeFirstOrThrow();
}

function storedDocument(db: Db, id: string) {
  return db
    .selectFrom("documents")
    .select(["id", "original_filename", "content_type", "file_size", "storage_key", "account_id"])
    .where("id", "=", id)
    .where("deleted_at", "is", null);
}

/** The account's live document by id, as the person sees it; another's, or one they do not see, answers like a missing one. */
export async function findStoredDocument(db: Db, id: string, accountId: string, personId: string): Promise<StoredDocument | undefined> {
  return storedDocument(db, id).where("account_id", "=", accountId).where(documentSeenBy(personId)).executeTakeFirst();
}

/** Any client's live document by id, for the firm: within the asker's reach (firm-scope.ts). */
export async function findStoredDocumentForFirm(db: Db, scope: FirmScope, id: string): Promise<StoredDocument | undefined> {
  return storedDocument(db, id).where(inFirmScope(scope, "documents.account_id")).executeTakeFirst();
}

/**
 * Moves a live document to the trash: out of its folder, which is remembered for a restore. Its
 * stored object stays until the document is deleted for good.
 */
function trashDocumentUpdate(db: Db, id: string, deletedAt: Date, byFirm = false) {
  return db
    .updateTable("documents")
    .set((eb) => ({
      deleted_at: deletedAt,
      trashed_from_folder_id: eb.ref("folder_id"),
      folder_id: null,
      // The firm trashing its own share pulls it back: out of the client's trash too.
      ...(byFirm ? { pulled_back: sql<boolean>`coalesce((select u.is_admin from users u where u.id = documents.uploaded_by), false)` } : {}),
    }))
    .where("id", "=", id)
    .where("deleted_at", "is", null);
}

/** Moves the account's live document to the trash (see `trashDocumentUpdate`); another's, or one the person does not see, is left alone. */
export async function trashDocumentRow(db: Db, id: string, deletedAt: Date, accountId: string, personId: string): Promise<DocumentRef | undefined> {
  return trashDocumentUpdate(db, id, deletedAt)
    .where("account_id", "=", accountId)
    .where(documentSeenBy(personId))
    .returning(["id", "account_id", "original_filename"])
    .executeTakeFirst();
}

/** Moves any client's live document to the trash, for the firm (see `trashDocumentUpdate`). */
export async function trashDocumentRowForFirm(db: Db, scope: FirmScope, id: string, deletedAt: Date): Promise<DocumentRef | undefined> {
  return trashDocumentUpdate(db, id, deletedAt, true)
    .where(inFirmScope(scope, "documents.account_id"))
    .returning(["id", "account_id", "original_filename"])
    .executeTakeFirst();
}

const trashedColumns = [
  "documents.id",
  "documents.original_filename",
  "documents.upload_date",
  "documents.file_size",
  // The folder it came from, while that folder exists.
  "folders.id as folder_id",
  "documents.content_type",
  "documents.deleted_at",
  fromFirm,
  uploadedByName,
] as const;

function trashedDocuments(db: Db) {
  return db
    .selectFrom("documents")
    .leftJoin("folders", (join) =>
      join.onRef("folders.id", "=", "documents.trashed_from_folder_id").onRef("folders.account_id", "=", "documents.account_id"),
    )
    .where("documents.deleted_at", "is not", null);
}

/** The account's trash as its client sees it (no share the firm pulled back), most recently deleted first. */
export async function listTrash(db: Db, accountId: string, personId: string) {
  const rows = await trashedDocuments(db)
    .select(trashedColumns)
    .where("documents.account_id", "=", accountId)
    .where("documents.pulled_back", "=", false)
    .where(documentSeenBy(personId))
    .orderBy("documents.deleted_at", "desc")
    .orderBy("documents.id", "desc")
    .execute();
  return rows.map((row) => ({ ...row, deleted_at: row.deleted_at! }));
}

function trashedDocument(db: Db, id: string) {
  return db
    .selectFrom("documents")
    .select(["account_id", "trashed_from_folder_id", "original_filename"])
    .where("id", "=", id)
    .where("deleted_at", "is not", null);
}

/** The owner's trashed document: who owns it and where it came from; another's, or a share the firm pulled back, answers like a missing one. */
export async function findTrashedDocument(db: Db, id: string, accountId: string, personId: string) {
  return trashedDocument(db, id)
    .where("account_id", "=", accountId)
    .where("pulled_back", "=", false)
    .where(documentSeenBy(personId))
    .executeTakeFirst();
}

/** Any client's trashed document, for the firm: who owns it and where it came from. */
export async function findTrashedDocumentForFirm(db: Db, scope: FirmScope, id: string) {
  return trashedDocument(db, id).where(inFirmScope(scope, "documents.account_id")).executeTakeFirst();
}

/**
 * Whether the folder exists and belongs to the account, locked (KEY SHARE) until the transaction ends
 * so it cannot be deleted before the document put back into it commits. Lock the folder before
 * touching the document: a folder delete locks them in that order too.
 */
export async function lockOwnFolder(db: Transaction<Database>, accountId: string, folderId: string): Promise<boolean> {
  const row = await db
    .selectFrom("folders")
    .select("id")
    .where("id", "=", folderId)
    .where("account_id", "=", accountId)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes a document out of the trash into `folderId` (null: the root); undefined if it is no longer trashed. */
export async function restoreDocumentRow(db: Db, id: string, folderId: string | null): Promise<DocumentItem | undefined> {
  return db
    .updateTable("documents")
    .set({ deleted_at: null, trashed_from_folder_id: null, folder_id: folderId, pulled_back: false })
    .where("id", "=", id)
    .where("deleted_at", "is not", null)
    .returning(documentColumns)
    .executeTakeFirst();
}

/**
 * Takes a trashed document out of its client's trash without deleting it (`pulled_back`, as a
 * firm's document the firm took back): what "delete forever" does while the account is under a
 * legal hold. The firm's trash keeps it, and the trash rule disposes of it once the hold is lifted.
 */
export async function pullBackTrashedDocumentRow(db: Db, id: string, accountId: string, personId: string): Promise<DocumentRef | undefined> {
  return db
    .updateTable("documents")
    .set({ pulled_back: true })
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .where(documentSeenBy(personId))
    .where("deleted_at", "is not", null)
    .where("pulled_back", "=", false)
    .returning(["id", "account_id", "original_filename"])
    .executeTakeFirst();
}

/** Deletes a trashed document's row for good (only that account's); its stored object goes after the commit. */
export async function deleteTrashedDocumentRow(
  db: Db,
  id: string,
  accountId: string,
  personId: string,
): Promise<(DocumentRef & { storage_key: string }) | undefined> {
  return db
    .deleteFrom("documents")
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .where(documentSeenBy(personId))
    .where("deleted_at", "is not", null)
    .where("pulled_back", "=", false)
    .returning(["id", "account_id", "original_filename", "storage_key"])
    .executeTakeFirst();
}

// The trail's and the notices' look-ups (activity.ts, mail.ts).

/** The caller's preview of the document in its owner's trail since `since`, if any. */
export async function findRecentPreviewEvent(db: Db, look: { document: DocumentRef; actorId: string; since: Date }) {
  return db
    .selectFrom("activity_events")
    .select("id")
    .where("account_id", "=", look.document.account_id)
    .where("occurred_at", ">", look.since)
    .where("action", "=", "document.preview")
    .where("target_id", "=", look.document.id)
    .where("actor_id", "=", look.actorId)
    .limit(1)
    .executeTakeFirst();
}

export async function findFolderName(db: Db, folderId: string): Promise<string | undefined> {
  const folder = await db.selectFrom("folders").select("name").where("id", "=", folderId).executeTakeFirst();
  return folder?.name;
}

export async function listFolderNames(db: Db, folderIds: string[]) {
  return db.selectFrom("folders").select(["id", "name"]).where("id", "in", folderIds).execute();
}

/**
 * Until when a document may not be renamed, moved or trashed (a signed document and its original,
 * domains/signatures; migration 2026-11-26T0600_signature_requests); null: no lock now.
 */
export async function documentRetainedUntil(db: Db, id: string, now: Date): Promise<Date | null> {
  const row = await db.selectFrom("documents").select("retained_until").where("id", "=", id).executeTakeFirst();
  return row?.retained_until && row.retained_until > now ? row.retained_until : null;
}
