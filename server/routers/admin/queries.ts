import { type Kysely, sql, type Transaction } from "kysely";
import { containsPattern } from "../../db/search.ts";
import type { Database } from "../../db/types.ts";
import { publicUserColumns } from "../auth/queries.ts";
import type { StoredDocument } from "../documents/queries.ts";

type Db = Kysely<Database> | Transaction<Database>;

export type PageWindow = { q?: string; limit: number; offset: number };

type CountedTable = "users" | "documents" | "folders" | "appointments";

/** Row counts kept by triggers (migration row_counts), so they cost one index lookup, not a scan. */
async function tableCounts(db: Db, tables: CountedTable[]): Promise<Record<CountedTable, number>> {
  const rows = await db.selectFrom("row_counts").select(["table_name", "row_count"]).where("table_name", "in", tables).execute();
  const counts = { users: 0, documents: 0, folders: 0, appointments: 0 };
  for (const row of rows) counts[row.table_name] = row.row_count;
  return counts;
}

export async function countAll(db: Db) {
  const counts = await tableCounts(db, ["users", "documents", "appointments", "folders"]);
  return {
    total_users: counts.users,
    total_documents: counts.documents,
    total_appointments: counts.appointments,
    total_folders: counts.folders,
  };
}

function matchingUsers(db: Db, q: string | undefined) {
  const query = db.selectFrom("users");
  if (!q) return query;
  const pattern = containsPattern(q);
  return query.where((eb) => eb.or([eb("name", "ilike", pattern), eb("email", "ilike", pattern), eb("username", "ilike", pattern)]));
}

/** Newest first; `q` matches name, email or username. */
export function userRows(db: Db, page: PageWindow) {
  return matchingUsers(db, page.q)
    .select(publicUserColumns)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function listUsers(db: Db, page: PageWindow) {
  const [items, count] = await Promise.all([
    userRows(db, page),
    page.q
      ? matchingUsers(db, page.q).select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow()
      : tableCounts(db, ["users"]).then((c) => ({ total: c.users })),
  ]);
  return { items, total: count.total };
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
          eb.selectFrom("users").select("users.id").where((u) => u.or([u("users.name", "ilike", pattern), u("users.email", "ilike", pattern)])),
        ),
      ]),
    );
  }
  return query;
}

/** Every user's documents, newest first; `q` matches the filename or the owner's name or email. */
export function documentRows(db: Db, page: PageWindow) {
  return matchingDocuments(db, page.q)
    .select(adminDocumentColumns)
    .orderBy("documents.upload_date", "desc")
    .orderBy("documents.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function listDocuments(db: Db, page: PageWindow) {
  const [items, count] = await Promise.all([
    documentRows(db, page),
    // Without a search every document counts (each has its owner), and that count is kept.
    page.q
      ? matchingDocuments(db, page.q).select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow()
      : tableCounts(db, ["documents"]).then((c) => ({ total: c.documents })),
  ]);
  return { items, total: count.total };
}

export async function findStoredDocument(db: Db, id: string): Promise<StoredDocument | undefined> {
  return db
    .selectFrom("documents")
    .select(["id", "original_filename", "content_type", "file_size", "storage_key"])
    .where("id", "=", id)
    .executeTakeFirst();
}

export async function deleteDocument(db: Db, id: string): Promise<{ storage_key: string } | undefined> {
  return db.deleteFrom("documents").where("id", "=", id).returning("storage_key").executeTakeFirst();
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

/** Locks the user row, so no upload can add a document (its foreign key waits) until we commit. */
export async function lockUser(db: Transaction<Database>, id: string) {
  return db.selectFrom("users").select(["id", "is_admin"]).where("id", "=", id).forUpdate().executeTakeFirst();
}

/**
 * Everything a user owns, children before parents. The foreign keys would cascade from `users`
 * too; deleting explicitly keeps the order visible and independent of the schema's ON DELETE.
 */
export async function deleteUserData(db: Transaction<Database>, userId: string): Promise<{ storage_key: string }[]> {
  const documents = await db.deleteFrom("documents").where("user_id", "=", userId).returning("storage_key").execute();
  // Folders reference each other; one statement removes the whole tree at once.
  await db.deleteFrom("folders").where("user_id", "=", userId).execute();
  await db.deleteFrom("appointments").where("user_id", "=", userId).execute();
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("password_reset_tokens").where("user_id", "=", userId).execute();
  await db.deleteFrom("login_codes").where("user_id", "=", userId).execute();
  await db.deleteFrom("users").where("id", "=", userId).execute();
  return documents;
}
