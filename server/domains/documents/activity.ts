import { accountClient, type ActivityAction, type ActivityClient, recordActivity } from "../activity/record.ts";
import type { Db } from "../../db/types.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { type DocumentRef, findFolderName, findRecentPreviewEvent } from "./queries.ts";
import { findAccountName } from "../accounts/queries.ts";

/**
 * Records an event about a document in its account's trail: one of its people acting, or the
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
    client: await accountOf(db, document.account_id),
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

async function accountOf(db: Db, accountId: string): Promise<ActivityClient> {
  const account = await findAccountName(db, accountId);
  return accountClient(account ?? { id: accountId, name: accountId });
}
