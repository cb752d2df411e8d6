import type { Db } from "../../db/types.ts";
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

/** How many rows went (0 or 1); a folder still holding anything raises a foreign-key violation. */
export async function deleteFolder(db: Db, userId: string, folderId: string): Promise<number> {
  const result = await db.deleteFrom("folders").where("id", "=", folderId).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
