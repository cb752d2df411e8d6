import { TRPCError } from "@trpc/server";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/types.ts";
import { deleteFolder, insertFolder, isOwnFolder } from "./queries.ts";
import type { CreateFolderInput, Folder } from "./schemas.ts";

type Db = Kysely<Database> | Transaction<Database>;

export const FOLDER_NOT_FOUND = "Folder not found";
export const PARENT_FOLDER_NOT_FOUND = "Parent folder not found";
export const FOLDER_NOT_EMPTY = "Folder is not empty";

export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";

export function isPgError(err: unknown, code: string): boolean {
  return (err as { code?: unknown } | null)?.code === code;
}

/**
 * The one ownership check for a folder id coming from a client (a parent, a listing, an upload
 * target): another user's folder answers exactly like a missing one.
 */
export async function assertOwnFolder(db: Db, userId: string, folderId: string, message = FOLDER_NOT_FOUND): Promise<void> {
  if (!(await isOwnFolder(db, userId, folderId))) throw new TRPCError({ code: "NOT_FOUND", message });
}

export async function createFolder(db: Db, userId: string, input: CreateFolderInput): Promise<Folder> {
  if (input.parent_folder_id) await assertOwnFolder(db, userId, input.parent_folder_id, PARENT_FOLDER_NOT_FOUND);
  try {
    return await insertFolder(db, userId, input);
  } catch (err) {
    if (isPgError(err, UNIQUE_VIOLATION)) {
      throw new TRPCError({ code: "CONFLICT", message: `A folder named "${input.name}" already exists here` });
    }
    // The parent was deleted between the check and the insert.
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "NOT_FOUND", message: PARENT_FOLDER_NOT_FOUND });
    throw err;
  }
}

/** Only an empty folder goes; the foreign keys (NO ACTION) make the emptiness check race-free. */
export async function removeFolder(db: Db, userId: string, folderId: string): Promise<{ success: true }> {
  let deleted: number;
  try {
    deleted = await deleteFolder(db, userId, folderId);
  } catch (err) {
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "CONFLICT", message: FOLDER_NOT_EMPTY });
    throw err;
  }
  if (deleted === 0) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
  return { success: true };
}
