import { type ActivityAction, type ActivityClient, recordActivity } from "../activity/record.ts";
import type { Db } from "../../db/types.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { type DocumentRef, findFolderName, findRecentPreviewEvent, findTrailOwner } from "./queries.ts";

/**
 * Records an event about a document in its owner's trail: the owner acting on their own, or the
 * firm acting on a client's (which the client then sees in their Recent activity).
 */
export async function recordDocumentActivity(
  db: Db,
  ctx: AuthedContext,
  action: ActivityAction,
  document: DocumentRef,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await recordActivity(db, ctx, {
    action,
    client: await ownerOf(db, ctx, document.user_id),
    target: { type: "document", id: document.id },
    detail: { filename: document.original_filename, ...detail },
  });
}

/** One look is one entry: a viewer asks for the file again (an image re-decoded, a PDF's ranges, the viewer reopened). */
const VIEW_MERGE_SECONDS = 60;

/** Whether `ctx.user` already has a preview of this document in its owner's trail within the last minute. */
export async function previewedJustNow(db: Db, ctx: AuthedContext, document: DocumentRef): Promise<boolean> {
  const since = new Date(ctx.now().getTime() - VIEW_MERGE_SECONDS * 1000);
  return (await findRecentPreviewEvent(db, { document, actorId: ctx.user.id, since })) !== undefined;
}

/** The folder's name for the trail (null: the root), read in the change's own transaction. */
export async function folderName(db: Db, folderId: string | null): Promise<string | null> {
  if (folderId === null) return null;
  return (await findFolderName(db, folderId)) ?? null;
}

async function ownerOf(db: Db, ctx: AuthedContext, userId: string): Promise<ActivityClient> {
  if (ctx.user.id === userId) return ctx.user;
  const owner = await findTrailOwner(db, userId);
  return owner ?? { id: userId, username: null, email: userId };
}
