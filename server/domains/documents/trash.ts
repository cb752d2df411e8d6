// The trash: moving a document there, restoring it, deleting it for good, and the hourly purge.
import { TRPCError } from "@trpc/server";
import type { Transaction } from "kysely";
import type { Database } from "../../db/types.ts";
import { removeStoredObjects } from "../../storage/remove-stored-objects.ts";
import type { AuthedContext, ClientContext, Context, FirmContext } from "../../trpc/context.ts";
import { folderName, recordDocumentActivity } from "./activity.ts";
import type { Success } from "../shared-schemas.ts";
import type { AdminTrashedDocument, ListPageInput, Page } from "../admin/schemas.ts";
import { listPage } from "../list-page.ts";
import { listAllTrash } from "./firm-queries.ts";
import {
  type DocumentRef,
  deleteTrashedDocumentRow,
  findTrashedDocument,
  findTrashedDocumentForFirm,
  listTrash,
  lockOwnFolder,
  pullBackTrashedDocumentRow,
  restoreDocumentRow,
  trashDocumentRow,
  trashDocumentRowForFirm,
} from "./queries.ts";
import { type DocumentItem, type FirmTrashResult, type TrashedDocument, TRASH_RETENTION_DAYS } from "./schemas.ts";
import { assertNotRetained, DOCUMENT_NOT_FOUND, RETAINED_DOCUMENT } from "./service.ts";
import { isPgError } from "../../db/errors.ts";
import { heldAccountIds, lockAccountForDisposal } from "../retention/queries.ts";
import { disposeDue } from "../retention/service.ts";

/**
 * Moves a live document to the trash with `trash` (the owner's or the firm's row update); its content
 * stays until purged. Returns the document moved, for the caller to say more of it.
 */
async function moveToTrash(
  ctx: AuthedContext,
  id: string,
  trash: (tx: Transaction<Database>, deletedAt: Date) => Promise<DocumentRef | undefined>,
): Promise<DocumentRef> {
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const trashed = await trash(tx, ctx.now());
      if (!trashed) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
      await recordDocumentActivity(tx, ctx, "document.trash", trashed);
      return trashed;
    });
  } catch (err) {
    // The retention trigger refused a row the caller reaches (the update's own ownership check passed).
    if (isPgError(err, RETAINED_DOCUMENT)) await assertNotRetained(ctx.db, id, ctx.now());
    throw err;
  }
}

/** Moves the owner's live document to the trash; another's answers like a missing one. */
async function trashDocument(ctx: ClientContext, id: string): Promise<Success> {
  await moveToTrash(ctx, id, (tx, deletedAt) => trashDocumentRow(tx, id, deletedAt, ctx.account.id, ctx.user.id));
  return { success: true };
}

/**
 * Moves any client's live document to its owner's trash, for the firm, and says whether a legal
 * hold on the account keeps it there past the trash's 30 days (the firm is told; the client never
 * is: docs/safeguards.md, "Retention and disposal").
 */
export async function trashDocumentForFirm(ctx: FirmContext, id: string): Promise<FirmTrashResult> {
  const trashed = await moveToTrash(ctx, id, (tx, deletedAt) => trashDocumentRowForFirm(tx, ctx.firmScope, id, deletedAt));
  const held = await heldAccountIds(ctx.db, [trashed.account_id]);
  return { success: true, legal_hold: held.length > 0 };
}

export function removeDocument(ctx: ClientContext, input: { id: string }): Promise<Success> {
  return trashDocument(ctx, input.id);
}

const DAY_MS = 24 * 60 * 60 * 1000;
const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * DAY_MS;

export function purgeDate(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + TRASH_RETENTION_MS);
}

export async function listOwnTrash(ctx: ClientContext): Promise<TrashedDocument[]> {
  const rows = await listTrash(ctx.db, ctx.account.id, ctx.user.id);
  return rows.map((row) => ({ ...row, purge_at: purgeDate(row.deleted_at) }));
}

/**
 * Takes a trashed document (found by `find`: the owner's or the firm's look-up) back to the folder
 * it came from, or to the root when that folder is gone. The folder is locked before the document
 * is touched, so a folder delete at the same moment either sees the document back (and refuses, not
 * empty) or is seen to have happened (root).
 */
async function restoreFromTrash(
  ctx: AuthedContext,
  id: string,
  find: (tx: Transaction<Database>) => Promise<{ account_id: string; trashed_from_folder_id: string | null } | undefined>,
): Promise<DocumentItem> {
  return ctx.db.transaction().execute(async (tx) => {
    const trashed = await find(tx);
    if (!trashed) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
    const from = trashed.trashed_from_folder_id;
    const folderId = from !== null && (await lockOwnFolder(tx, trashed.account_id, from)) ? from : null;
    const restored = await restoreDocumentRow(tx, id, folderId);
    // Restored, deleted for good or purged by someone else in between.
    if (!restored) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
    await recordDocumentActivity(
      tx,
      ctx,
      "document.restore",
      { ...restored, account_id: trashed.account_id },
      { folder: await folderName(tx, folderId) },
    );
    return restored;
  });
}

/** Restores the owner's trashed document (see `restoreFromTrash`); another's answers like a missing one. */
function restoreTrashedDocument(ctx: ClientContext, id: string): Promise<DocumentItem> {
  return restoreFromTrash(ctx, id, (tx) => findTrashedDocument(tx, id, ctx.account.id, ctx.user.id));
}

/** Restores any client's trashed document into its owner's folders, for the firm (see `restoreFromTrash`). */
export function restoreTrashedDocumentForFirm(ctx: FirmContext, id: string): Promise<DocumentItem> {
  return restoreFromTrash(ctx, id, (tx) => findTrashedDocumentForFirm(tx, ctx.firmScope, id));
}

export function restoreOwnDocument(ctx: ClientContext, input: { id: string }): Promise<DocumentItem> {
  return restoreTrashedDocument(ctx, input.id);
}

/**
 * Only a trashed document is deleted for good. The row goes first, then the content: a failure in
 * between leaves a stray file, never a broken row. Under a legal hold nothing is disposed of
 * (docs/safeguards.md, "Retention and disposal"): the document leaves the client's trash as they
 * asked but stays in the firm's, which the trail says to the firm alone.
 */
export async function deleteOwnDocumentForever(ctx: ClientContext, input: { id: string }): Promise<Success> {
  const deleted = await ctx.db.transaction().execute(async (tx) => {
    // Locked as the daily disposal locks it: a hold placed meanwhile waits, one placed first is seen.
    if ((await lockAccountForDisposal(tx, ctx.account.id))?.held) {
      const kept = await pullBackTrashedDocumentRow(tx, input.id, ctx.account.id, ctx.user.id);
      if (!kept) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
      await recordDocumentActivity(tx, ctx, "document.delete", kept);
      await recordDocumentActivity(tx, ctx, "document.delete_held", kept);
      return null;
    }
    const row = await deleteTrashedDocumentRow(tx, input.id, ctx.account.id, ctx.user.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
    await recordDocumentActivity(tx, ctx, "document.delete", row);
    return row;
  });
  if (deleted) await removeStoredObjects(ctx.storage, ctx.logger, [deleted]);
  return { success: true };
}

/**
 * Deletes for good what has been in the trash longer than the retention, but nothing of an account
 * under a legal hold, with a disposal receipt in the trail per account (retention/service.ts, which
 * also runs the daily retention job). Returns how many documents went.
 */
export async function purgeExpiredTrash(deps: Pick<Context, "db" | "storage" | "logger" | "now">): Promise<number> {
  return (await disposeDue(deps, { trashOnly: true })).documents;
}

/** Into the owner's trash, as the owner's own delete does: the owner sees it there and may restore it. */
export async function deleteAnyDocument(ctx: FirmContext, input: { id: string }): Promise<FirmTrashResult> {
  const result = await trashDocumentForFirm(ctx, input.id);
  ctx.logger.info({ documentId: input.id }, "document moved to the trash by admin");
  return result;
}

export const trashPage = (ctx: FirmContext, input: ListPageInput): Promise<Page<AdminTrashedDocument>> =>
  listPage(input, async (w) => {
    const { items, total } = await listAllTrash(ctx.db, ctx.firmScope, w);
    return { items: items.map((row) => ({ ...row, purge_at: purgeDate(row.deleted_at) })), total };
  });

export function restoreAnyDocument(ctx: FirmContext, input: { id: string }): Promise<DocumentItem> {
  return restoreTrashedDocumentForFirm(ctx, input.id);
}
