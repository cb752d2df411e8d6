import { type Insertable, type Kysely, sql, type Transaction } from "kysely";
import type { Logger } from "pino";
import type { DocumentsTable, Database } from "../../db/types.ts";
import type { ObjectStorage } from "../../storage/storage.ts";
import type { DocumentItem } from "./schemas.ts";

type Db = Kysely<Database> | Transaction<Database>;

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

export async function findOwnStoredDocument(db: Db, userId: string, id: string): Promise<StoredDocument | undefined> {
  return db
    .selectFrom("documents")
    .select(["id", "original_filename", "content_type", "file_size", "storage_key"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

export async function deleteOwnDocument(db: Db, userId: string, id: string): Promise<{ storage_key: string } | undefined> {
  return db
    .deleteFrom("documents")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .returning("storage_key")
    .executeTakeFirst();
}

/**
 * Removes the stored content of rows that are already deleted. Call it only after the deleting
 * transaction has committed: a rolled-back delete must still find its file. A failure leaves an
 * unreferenced file (logged), never a row without content.
 */
export async function removeStoredObjects(
  storage: ObjectStorage,
  logger: Logger,
  rows: readonly { storage_key: string }[],
): Promise<void> {
  for (const { storage_key } of rows) {
    try {
      await storage.delete(storage_key);
    } catch (err) {
      logger.warn({ err, storage_key }, "stored object of a deleted document was not removed");
    }
  }
}
