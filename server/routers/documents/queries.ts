import { type Insertable, sql, type Transaction } from "kysely";
import { tableCounts } from "../../db/row-counts.ts";
import { containsPattern, type PageWindow } from "../../db/search.ts";
import type { Database, Db, DocumentsTable } from "../../db/types.ts";
import type { DocumentItem } from "./schemas.ts";

const documentColumns = ["id", "original_filename", "upload_date", "file_size", "folder_id", "content_type"] as const;

/** What a download needs: the display name and type, the size, and where the content is. */
export type StoredDocument = Pick<DocumentItem, "id" | "original_filename" | "content_type" | "file_size"> & { storage_key: string };

/** The caller's documents in one folder, or in the root when `folderId` is null. */
export async function listDocuments(db: Db, userId: string, folderId: string | null): Promise<DocumentItem[]> {
  return db
    .selectFrom("documents")
    .select(documentColumns)
    .where("user_id", "=", userId)
    .where("folder_id", folderId === null ? "is" : "=", folderId)
    .orderBy("upload_date", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** The sum of the sizes of a user's documents (an index-only scan of documents_user_size_idx). */
export async function storedBytes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("documents")
    .select(sql<number>`coalesce(sum(file_size), 0)::bigint`.as("used"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.used;
}

/** The user's own quota (null: the firm's default); undefined when the account is gone. */
export async function findStorageQuota(db: Db, userId: string): Promise<{ storage_quota_mb: number | null } | undefined> {
  return db.selectFrom("users").select("storage_quota_mb").where("id", "=", userId).executeTakeFirst();
}

/**
 * The same, with the user row locked until the transaction ends, so that one user's uploads
 * check and record their sizes one at a time. NO KEY UPDATE, not UPDATE: it does not block the
 * foreign-key checks of the user's other inserts (sessions, folders, appointments).
 */
export async function lockStorageQuota(db: Transaction<Database>, userId: string): Promise<{ storage_quota_mb: number | null } | undefined> {
  return db.selectFrom("users").select("storage_quota_mb").where("id", "=", userId).forNoKeyUpdate().executeTakeFirst();
}

export async function insertDocument(db: Db, row: Insertable<DocumentsTable>): Promise<DocumentItem> {
  return db.insertInto("documents").values(row).returning(documentColumns).executeTakeFirstOrThrow();
}

/** A document by id; with `ownerId`, only if that user owns it (another's answers like a missing one). */
export async function findStoredDocument(db: Db, id: string, ownerId?: string): Promise<StoredDocument | undefined> {
  let query = db.selectFrom("documents").select(["id", "original_filename", "content_type", "file_size", "storage_key"]).where("id", "=", id);
  if (ownerId !== undefined) query = query.where("user_id", "=", ownerId);
  return query.executeTakeFirst();
}

/** Deletes a document row (with `ownerId`, only that user's); its stored object goes after the commit. */
export async function deleteDocumentRow(db: Db, id: string, ownerId?: string): Promise<{ storage_key: string } | undefined> {
  let query = db.deleteFrom("documents").where("id", "=", id);
  if (ownerId !== undefined) query = query.where("user_id", "=", ownerId);
  return query.returning("storage_key").executeTakeFirst();
}

const adminDocumentColumns = [
  "documents.id",
  "documents.original_filename",
  "documents.upload_date",
  "documents.file_size",
  "documents.folder_id",
  "documents.content_type",
  "documents.user_id",
  "users.name as user_name",
  "users.email as user_email",
] as const;

function matchingDocuments(db: Db, q: string | undefined) {
  let query = db.selectFrom("documents").innerJoin("users", "users.id", "documents.user_id");
  if (q) {
    const pattern = containsPattern(q);
    // Owner matches go through a subquery on users, so each side can use its own trigram index
    // (an OR across the join could not use either).
    query = query.where((eb) =>
      eb.or([
        eb("documents.original_filename", "ilike", pattern),
        eb(
          "documents.user_id",
          "in",
          eb
            .selectFrom("users")
            .select("users.id")
            .where((u) => u.or([u("users.name", "ilike", pattern), u("users.email", "ilike", pattern)])),
        ),
      ]),
    );
  }
  return query;
}

/** Every user's documents (the admin's list), newest first; `q` matches the filename or the owner's name or email. */
export function allDocumentRows(db: Db, page: PageWindow) {
  return matchingDocuments(db, page.q)
    .select(adminDocumentColumns)
    .orderBy("documents.upload_date", "desc")
    .orderBy("documents.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function listAllDocuments(db: Db, page: PageWindow) {
  const [items, count] = await Promise.all([
    allDocumentRows(db, page),
    // Without a search every document counts (each has its owner), and that count is kept.
    page.q
      ? matchingDocuments(db, page.q)
          .select(sql<number>`count(*)::int`.as("total"))
          .executeTakeFirstOrThrow()
      : tableCounts(db, ["documents"]).then((c) => ({ total: c.documents })),
  ]);
  return { items, total: count.total };
}

/** Each user's own quota (null: the default) and the bytes their documents take. */
export async function storageOfUsers(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("users")
    .select((eb) => [
      "users.id",
      "users.storage_quota_mb",
      eb
        .selectFrom("documents")
        .select(sql<number>`coalesce(sum(file_size), 0)::bigint`.as("used"))
        .whereRef("documents.user_id", "=", "users.id")
        .$asScalar()
        .as("used_bytes"),
    ])
    .where("users.id", "in", ids)
    .execute();
}

export async function setStorageQuota(db: Db, id: string, quotaMb: number | null) {
  return db.updateTable("users").set({ storage_quota_mb: quotaMb }).where("id", "=", id).returning("id").executeTakeFirst();
}
