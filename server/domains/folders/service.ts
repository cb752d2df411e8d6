import { TRPCError } from "@trpc/server";
import { accountClient, type ActivityAction, recordActivity } from "../activity/record.ts";
import { FOREIGN_KEY_VIOLATION, isPgError, UNIQUE_VIOLATION } from "../../db/errors.ts";
import type { Db } from "../../db/types.ts";
import type { ClientContext } from "../../trpc/context.ts";
import type { Success } from "../shared-schemas.ts";
import { deleteFolder, findOwnFolder, insertFolder, isOwnFolder, isWithin, listFolders, lockFolderMoves, updateFolderRow } from "./queries.ts";
import type { CreateFolderInput, Folder, UpdateFolderInput } from "./schemas.ts";

export const FOLDER_NOT_FOUND = "Folder not found";
const PARENT_FOLDER_NOT_FOUND = "Parent folder not found";
const FOLDER_NOT_EMPTY = "Folder is not empty";
const FOLDER_NAME_TAKEN = "A folder with this name already exists";
const FOLDER_INTO_ITSELF = "A folder cannot be moved into itself";
const FIRM_FOLDER_NOT_PRIVATE = "Only a person of the account makes a folder private to them";
const PRIVACY_MOVE = "A folder moves only among folders the same people see: its privacy would change";

/**
 * The one ownership check for a folder id coming from a client (a parent, a listing, an upload
 * target): another account's folder answers exactly like a missing one.
 */
export async function assertOwnFolder(db: Db, accountId: string, folderId: string, message = FOLDER_NOT_FOUND): Promise<void> {
  if (!(await isOwnFolder(db, accountId, folderId))) throw new TRPCError({ code: "NOT_FOUND", message });
}

/** assertOwnFolder for a person of the account: another person's private folder answers like a missing one too. */
export async function assertFolderSeen(ctx: ClientContext, folderId: string, message = FOLDER_NOT_FOUND): Promise<void> {
  if (!(await findOwnFolder(ctx.db, ctx.account.id, ctx.user.id, folderId))) throw new TRPCError({ code: "NOT_FOUND", message });
}

export function listOwnFolders(ctx: ClientContext): Promise<Folder[]> {
  return listFolders(ctx.db, ctx.account.id, ctx.user.id);
}

export function createFolder(ctx: ClientContext, input: CreateFolderInput): Promise<Folder> {
  return createFolderIn(ctx, ctx.account, input, ctx.user.id);
}

/**
 * A new folder in `account`: the client's own, or one the firm makes in a client's tree from their
 * record (firm-documents/service.ts), each recorded in the account's trail as the asker's.
 */
export async function createFolderIn(
  ctx: Pick<ClientContext, "db" | "user" | "ip" | "userAgent" | "now">,
  account: { id: string; name: string },
  input: CreateFolderInput,
  personId: string | null = null,
): Promise<Folder> {
  const parent = input.parent_folder_id ? await findOwnFolder(ctx.db, account.id, personId, input.parent_folder_id) : null;
  if (parent === undefined) throw new TRPCError({ code: "NOT_FOUND", message: PARENT_FOLDER_NOT_FOUND });
  // Inside a private folder, private to the same person (docs/decisions.md, "Private folders").
  const privateTo = parent?.is_private ? parent.private_to : input.private && personId !== null ? personId : null;
  if (input.private && personId === null) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: FIRM_FOLDER_NOT_PRIVATE });
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const folder = await insertFolder(tx, account.id, input, privateTo);
      await recordActivity(tx, ctx, {
        action: "folder.create",
        client: accountClient(account),
        target: { type: "folder", id: folder.id },
        detail: { folder: folder.name },
      });
      return folder;
    });
  } catch (err) {
    if (isPgError(err, UNIQUE_VIOLATION)) {
      throw new TRPCError({ code: "CONFLICT", message: `A folder named "${input.name}" already exists here` });
    }
    // The parent was deleted between the check and the insert.
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "NOT_FOUND", message: PARENT_FOLDER_NOT_FOUND });
    throw err;
  }
}

/**
 * Renames, recolours and/or moves one of the caller's folders. A move checks, with the caller's
 * moves serialized, that the new parent is theirs and not the folder itself or anything below it.
 */
export async function updateFolder(ctx: ClientContext, input: UpdateFolderInput): Promise<Folder> {
  const { id, parent_folder_id: parentId } = input;
  const accountId = ctx.account.id;
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      if (parentId !== undefined) {
        if (!(await lockFolderMoves(tx, accountId))) throw new TRPCError({ code: "UNAUTHORIZED", message: "Not authenticated" });
        // After the lock, so these read what the caller's previous move committed.
        const moving = await findOwnFolder(tx, accountId, ctx.user.id, id);
        if (!moving) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
        if (parentId !== null) {
          const parent = await findOwnFolder(tx, accountId, ctx.user.id, parentId);
          if (!parent) throw new TRPCError({ code: "NOT_FOUND", message: PARENT_FOLDER_NOT_FOUND });
          if (await isWithin(tx, parentId, id)) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: FOLDER_INTO_ITSELF });
          // Its documents would be seen by other people than those who see them now.
          if (parent.is_private !== moving.is_private) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: PRIVACY_MOVE });
        }
      }
      const updated = await updateFolderRow(tx, accountId, ctx.user.id, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
        ...(parentId !== undefined ? { parent_folder_id: parentId } : {}),
      });
      if (!updated) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
      const changes = Object.keys(input).filter((key) => key !== "id");
      await recordFolderActivity(tx, ctx, "folder.update", updated, { changes });
      return updated;
    });
  } catch (err) {
    if (isPgError(err, UNIQUE_VIOLATION)) throw new TRPCError({ code: "CONFLICT", message: FOLDER_NAME_TAKEN });
    // The new parent was deleted between the check and the move.
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "NOT_FOUND", message: PARENT_FOLDER_NOT_FOUND });
    throw err;
  }
}

/**
 * Only an empty folder goes; the foreign keys (NO ACTION) make the emptiness check race-free.
 * Trashed documents are in no folder (their folder is only remembered), so they do not count.
 */
export async function removeFolder(ctx: ClientContext, input: { id: string }): Promise<Success> {
  try {
    await ctx.db.transaction().execute(async (tx) => {
      const deleted = await deleteFolder(tx, ctx.account.id, ctx.user.id, input.id);
      if (!deleted) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
      await recordFolderActivity(tx, ctx, "folder.delete", { id: input.id, name: deleted.name }, {});
    });
  } catch (err) {
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "CONFLICT", message: FOLDER_NOT_EMPTY });
    throw err;
  }
  return { success: true };
}

function recordFolderActivity(
  db: Db,
  ctx: ClientContext,
  action: ActivityAction,
  folder: { id: string; name: string },
  detail: Record<string, unknown>,
) {
  return recordActivity(db, ctx, {
    action,
    client: accountClient(ctx.account),
    target: { type: "folder", id: folder.id },
    detail: { folder: folder.name, ...detail },
  });
}
