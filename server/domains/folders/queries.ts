import { sql, type Transaction, type Updateable } from "kysely";
import type { Database, Db, FoldersTable } from "../../db/types.ts";
import type { CreateFolderInput, Folder } from "./schemas.ts";

// The spec's folder: no timestamps. A client with a thousand folders lists them all at once, and
// parsing and serializing a date per folder was a third of that listing's time.
const folderColumns = ["id", "name", "parent_folder_id", "color"] as const;

export async function listFolders(db: Db, userId: string): Promise<Folder[]> {
  return db
    .selectFrom("folders")
    .select(folderColumns)
    .where("user_id", "=", userId)
    .orderBy((eb) => eb.fn("lower", ["name"]))
    .orderBy("id")
    .execute();
}

export async function isOwnFolder(db: Db, userId: string, folderId: string): Promise<boolean> {
  const row = await db.selectFrom("folders").select("id").where("id", "=", folderId).where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}

export async function insertFolder(db: Db, userId: string, input: CreateFolderInput): Promise<Folder> {
  return db
    .insertInto("folders")
    .values({ user_id: userId, parent_folder_id: input.parent_folder_id, name: input.name, color: input.color })
    .returning(folderColumns)
    .executeTakeFirstOrThrow();
}

/** The deleted folder's name (undefined: no such folder of the user's); a folder still holding anything raises a foreign-key violation. */
export async function deleteFolder(db: Db, userId: string, folderId: string): Promise<{ name: string } | undefined> {
  return db.deleteFrom("folders").where("id", "=", folderId).where("user_id", "=", userId).returning("name").executeTakeFirst();
}

/**
 * Locks the user's row (NO KEY UPDATE, as the upload quota check does) until the transaction ends:
 * one user's folder moves then happen one at a time, so two moves checked side by side cannot
 * together make a cycle. False when the user is gone.
 */
export async function lockFolderMoves(db: Transaction<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("id").where("id", "=", userId).forNoKeyUpdate().executeTakeFirst();
  return row !== undefined;
}

/** Whether `folderId` is `ancestorId` or lies anywhere below it (walking up from `folderId`). */
export async function isWithin(db: Db, folderId: string, ancestorId: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    with recursive up (id, parent_folder_id) as (
      select id, parent_folder_id from folders where id = ${folderId}
      union
      select f.id, f.parent_folder_id from folders f join up on f.id = up.parent_folder_id
    )
    select exists (select 1 from up where id = ${ancestorId}) as found`.execute(db);
  return rows[0]?.found === true;
}

export async function updateFolderRow(
  db: Db,
  userId: string,
  folderId: string,
  changes: Pick<Updateable<FoldersTable>, "name" | "color" | "parent_folder_id">,
): Promise<Folder | undefined> {
  return db.updateTable("folders").set(changes).where("id", "=", folderId).where("user_id", "=", userId).returning(folderColumns).executeTakeFirst();
}
