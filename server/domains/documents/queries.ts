import { type ExpressionBuilder, type Insertable, sql, type Transaction, type Updateable } from "kysely";
import { tableCounts } from "../../db/row-counts.ts";
import { containsPattern, type PageWindow } from "../../db/search.ts";
import type { Database, Db, DocumentsTable } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { DocumentItem, DocumentSearchInput } from "./schemas.ts";

/**
 * Shared by the firm: uploaded by someone at the firm (null uploaded_by: the client's own, from
 * before the column). Not "someone other than the account": every contact uploads as the client.
 */
const fromFirm = sql<boolean>`coalesce((select u.is_admin from users u where u.id = documents.uploaded_by), false)`.as("from_firm");
/**
 * Who uploaded it, as the account's people see it (docs/decisions.md, "An account's people"): the
 * person's name for one of theirs, "From your firm" for the firm's (its people are not named to
 * clients), null when nobody is known (an upload from before the column, or a person since deleted).
 */
const uploadedByName = sql<
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

/**
 * The firm's lists name a document's client as they did when a client was one person: `user_id`,
 * `user_name` and `user_email` are the account's first owner's (docs/decisions.md, "Client accounts
 * (issue 32)"), or the account's id and name while nobody has joined it yet.
 */
const accountPersonColumns = [
  sql<string>`coalesce(owner.owner_id, documents.account_id)`.as("user_id"),
  sql<string>`coalesce(owner.owner_name, accounts.name)`.as("user_name"),
  sql<string>`coalesce(owner.owner_email, '')`.as("user_email"),
] as const;

const adminDocumentColumns = [
  "documents.id",
  "documents.original_filename",
  "documents.upload_date",
  "documents.file_size",
  "documents.folder_id",
  "documents.content_type",
  ...accountPersonColumns,
  fromFirm,
  uploadedByName,
] as const;

/** Live (or trashed) documents whose filename, or whose owner's name or email, contains `q`. */
function documentMatches(db: Db, q: string | undefined, trashed = false) {
  let query = db.selectFrom("documents").where("documents.deleted_at", trashed ? "is not" : "is", null);
  if (q) {
    const pattern = containsPattern(q);
    // Owner matches go through a subquery on users, so each side can use its own trigram index
    // (an OR across the join could not use either).
    query = query.where((eb) =>
      eb.or([eb("documents.original_filename", "ilike", pattern), eb("documents.account_id", "in", accountsOfPeopleMatching(eb, pattern))]),
    );
  }
  return query;
}

/** The accounts one of whose people has a name or email matching (their trigram indexes), or whose own name does. */
function accountsOfPeopleMatching(eb: ExpressionBuilder<Database, "documents">, pattern: string) {
  return eb
    .selectFrom("account_contacts")
    .innerJoin("users", "users.id", "account_contacts.user_id")
    .select("account_contacts.account_id")
    .where((u) => u.or([u("users.name", "ilike", pattern), u("users.email", "ilike", pattern)]))
    .union(eb.selectFrom("accounts").select("accounts.id as account_id").where("accounts.name", "ilike", pattern));
}

function matchingDocuments(db: Db, q: string | undefined, trashed = false) {
  return documentMatches(db, q, trashed)
    .innerJoin("accounts", "accounts.id", "documents.account_id")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("account_contacts as c")
          .innerJoin("users as u", "u.id", "c.user_id")
          .select(["u.id as owner_id", "u.name as owner_name", "u.email as owner_email"])
          .whereRef("c.account_id", "=", "documents.account_id")
          .orderBy(sql`c.role = 'owner'`, "desc")
          .orderBy("c.created_at")
          .limit(1)
          .as("owner"),
      (join) => join.onTrue(),
    );
}

/**
 * How many live documents match, counted up to `cap` + 1 on each side of the search: filenames
 * (the trigram bitmap), then documents of matching owners whose filename does not match (their
 * user_id index), so none counts twice. The single OR of both could use no index and read the whole
 * table (0.4 to 1.2 s at a million documents); with a LIMIT the planner may still expect early
 * matches in a sequential scan, so sequential scans are switched off for this count.
 */
async function countMatches(db: Db, q: string, cap: number): Promise<number> {
  const pattern = containsPattern(q);
  const upTo = (tx: Db, matches: ReturnType<typeof liveDocuments>) =>
    tx
      .selectFrom(
        matches
          .select(sql`1`.as("one"))
          .limit(cap + 1)
          .as("matches"),
      )
      .select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow()
      .then((row) => row.n);
  const liveDocuments = (tx: Db) => tx.selectFrom("documents").where("documents.deleted_at", "is", null);
  const run = async (tx: Transaction<Database>) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const byName = await upTo(tx, liveDocuments(tx).where("documents.original_filename", "ilike", pattern));
    if (byName > cap) return byName;
    const byOwner = await upTo(
      tx,
      liveDocuments(tx)
        .where("documents.original_filename", "not ilike", pattern)
        .where("documents.account_id", "in", (eb) => accountsOfPeopleMatching(eb, pattern)),
    );
    return byName + byOwner;
  };
  return db.isTransaction ? run(db as Transaction<Database>) : db.transaction().execute(run);
}

/** Every user's documents (the admin's list), newest first; `q` matches the filename or the owner's name or email. */
export function allDocumentRows(db: Db, scope: FirmScope, page: PageWindow) {
  return matchingDocuments(db, page.q)
    .where(inFirmScope(scope, "documents.account_id"))
    .select(adminDocumentColumns)
    .orderBy("documents.upload_date", "desc")
    .orderBy("documents.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * A search's matches are counted up to this many: the exact count of a common word over a million
 * documents visits every match (350 ms) for a figure nobody pages through; past it the page says
 * "10,000+".
 */
const SEARCH_COUNT_CAP = 10_000;

export async function listAllDocuments(db: Db, scope: FirmScope, page: PageWindow) {
  // A staff member's assigned accounts are few: their documents are counted exactly.
  if (!scope.all) {
    const [items, counted] = await Promise.all([
      allDocumentRows(db, scope, page),
      matchingDocuments(db, page.q)
        .where(inFirmScope(scope, "documents.account_id"))
        .select(sql<number>`count(*)::int`.as("n"))
        .executeTakeFirstOrThrow(),
    ]);
    return { items, total: counted.n };
  }
  // Without a search every live document counts (each has its owner): the kept count of all rows
  // less the trash, which is small and counted from its own index.
  if (!page.q) {
    const [items, total] = await Promise.all([allDocumentRows(db, scope, page), liveDocumentCount(db)]);
    return { items, total };
  }
  // Counted far enough to cover this page, at least to the cap.
  const cap = Math.max(SEARCH_COUNT_CAP, page.offset + page.limit);
  const [items, counted] = await Promise.all([allDocumentRows(db, scope, page), countMatches(db, page.q, cap)]);
  return counted > cap ? { items, total: cap, totalCapped: true } : { items, total: counted };
}

/** Documents in the trash (a small count, from the trash's own index). */
export async function trashedDocumentCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom("documents")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("deleted_at", "is not", null)
    .executeTakeFirstOrThrow();
  return row.n;
}

async function liveDocumentCount(db: Db): Promise<number> {
  const [counts, trashed] = await Promise.all([tableCounts(db, ["documents"]), trashedDocumentCount(db)]);
  return counts.documents - trashed;
}

/** Every user's trash (the admin's), most recently deleted first; `q` as in the documents list. */
export async function listAllTrash(db: Db, scope: FirmScope, page: PageWindow) {
  const [items, count] = await Promise.all([
    matchingDocuments(db, page.q, true)
      .where(inFirmScope(scope, "documents.account_id"))
      .leftJoin("folders", (join) =>
        join.onRef("folders.id", "=", "documents.trashed_from_folder_id").onRef("folders.account_id", "=", "documents.account_id"),
      )
      .select([
        "documents.id",
        "documents.original_filename",
        "documents.upload_date",
        "documents.file_size",
        "folders.id as folder_id",
        "documents.content_type",
        ...accountPersonColumns,
        "documents.deleted_at",
        fromFirm,
        uploadedByName,
      ])
      .orderBy("documents.deleted_at", "desc")
      .orderBy("documents.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    documentMatches(db, page.q, true)
      .where(inFirmScope(scope, "documents.account_id"))
      .select(sql<number>`count(*)::int`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: items.map((row) => ({ ...row, deleted_at: row.deleted_at! })), total: count.total };
}

/**
 * Each person's storage as the firm's users list shows it: their account's (the one the firm's
 * paths mean by them, accountForPerson) quota and the bytes its documents take. A person in no
 * account, or in several they do not own one of, has none.
 */
export async function storageOfUsersForFirm(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("accounts", "accounts.id", "c.account_id")
    .select((eb) => [
      "c.user_id as id",
      "accounts.storage_quota_mb",
      eb
        .selectFrom("documents")
        .select(sql<number>`coalesce(sum(file_size), 0)::bigint`.as("used"))
        .whereRef("documents.account_id", "=", "accounts.id")
        .$asScalar()
        .as("used_bytes"),
    ])
    .where("c.user_id", "in", ids)
    .orderBy(sql`c.role = 'owner'`, "desc")
    .execute();
}

export async function setStorageQuotaForFirm(db: Db, accountId: string, quotaMb: number | null) {
  return db.updateTable("accounts").set({ storage_quota_mb: quotaMb }).where("id", "=", accountId).returning("id").executeTakeFirst();
}

// Upload notices (upload-notices.ts): batches of uploads waiting for their email.

export type NoticeAudience = "client" | "firm";
/** `uploaded_by_name`: who of the account uploaded it (null once they are deleted, or for the firm's own). */
export type NoticedDocument = { original_filename: string; folder_id: string | null; upload_date: Date; uploaded_by_name: string | null };

/** The owner's open batch for `audience`, locked, so the email job closing it waits for the upload's commit. */
export async function findOpenUploadNotice(tx: Transaction<Database>, accountId: string, audience: NoticeAudience) {
  return tx
    .selectFrom("upload_notices")
    .select(["id", "due_at"])
    .where("account_id", "=", accountId)
    .where("audience", "=", audience)
    .where("closed_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertUploadNotice(db: Db, notice: Insertable<Database["upload_notices"]>) {
  return db.insertInto("upload_notices").values(notice).returning(["id", "due_at"]).executeTakeFirstOrThrow();
}

export async function insertUploadNoticeDocument(db: Db, noticeId: string, documentId: string): Promise<void> {
  await db.insertInto("upload_notice_documents").values({ notice_id: noticeId, document_id: documentId }).execute();
}

/** Closes the batch (already closed on a retry: its first close stays); undefined when it is gone. */
export async function closeUploadNotice(db: Db, noticeId: string, now: Date) {
  return db
    .updateTable("upload_notices")
    .set((eb) => ({ closed_at: eb.fn.coalesce("closed_at", eb.val(now)) }))
    .where("id", "=", noticeId)
    .returning("account_id")
    .executeTakeFirst();
}

/** The batch's documents still live, oldest first. */
export async function listNoticedDocuments(db: Db, noticeId: string): Promise<NoticedDocument[]> {
  return db
    .selectFrom("upload_notice_documents")
    .innerJoin("documents", "documents.id", "upload_notice_documents.document_id")
    .leftJoin("users as uploader", "uploader.id", "documents.uploaded_by")
    .select(["documents.original_filename", "documents.folder_id", "documents.upload_date", "uploader.name as uploaded_by_name"])
    .where("upload_notice_documents.notice_id", "=", noticeId)
    .where("documents.deleted_at", "is", null)
    .orderBy("documents.upload_date")
    .orderBy("documents.id")
    .execute();
}

/** Closed batches are kept as long as sent-mail records, then swept (jobs/sweeps.ts). */
export async function deleteClosedNotices(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom("upload_notices").where("closed_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const DOCUMENT_NAMES_IN_EMAILS = "include_document_names_in_emails";

export async function findDocumentNamesSetting(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom("firm_settings").select("value").where("key", "=", DOCUMENT_NAMES_IN_EMAILS).executeTakeFirst();
  return row?.value;
}

export async function upsertDocumentNamesSetting(db: Db, value: string, now: Date): Promise<void> {
  await db
    .insertInto("firm_settings")
    .values({ key: DOCUMENT_NAMES_IN_EMAILS, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
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

/** What extracting a document's text needs, while it is live and not yet tried; undefined otherwise. */
export async function findDocumentForText(db: Db, id: string) {
  return db
    .selectFrom("documents")
    .select(["id", "storage_key", "content_type", "file_size"])
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("text_extracted_at", "is", null)
    .executeTakeFirst();
}

/**
 * Records a document's extracted text as its lexemes (null: nothing to read, or skipped), once:
 * a second run of the same job, or the backfill after it, finds it done.
 */
export async function recordDocumentText(db: Db, id: string, text: string | null, at: Date): Promise<void> {
  await db
    .updateTable("documents")
    .set({
      content_vector: text === null || text.trim() === "" ? null : sql<string>`to_tsvector('english'::regconfig, ${text})`,
      text_extracted_at: at,
    })
    .where("id", "=", id)
    .where("text_extracted_at", "is", null)
    .execute();
}

/** The backfill's next live documents not yet tried, after `afterId` in id order (documents_text_pending_idx). */
export async function pendingTextDocuments(db: Db, afterId: string | null, limit: number): Promise<string[]> {
  let query = db.selectFrom("documents").select("id").where("text_extracted_at", "is", null).where("deleted_at", "is", null);
  if (afterId) query = query.where("id", ">", afterId);
  const rows = await query.orderBy("id").limit(limit).execute();
  return rows.map((r) => r.id);
}

/**
 * Until when a document may not be renamed, moved or trashed (a signed document and its original,
 * domains/signatures; migration 2026-11-26T0600_signature_requests); null: no lock now.
 */
export async function documentRetainedUntil(db: Db, id: string, now: Date): Promise<Date | null> {
  const row = await db.selectFrom("documents").select("retained_until").where("id", "=", id).executeTakeFirst();
  return row?.retained_until && row.retained_until > now ? row.retained_until : null;
}
