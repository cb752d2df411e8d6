// The firm's private notes on a client account (docs/decisions.md, "Private notes on a client's
// record"). Anyone of the firm who reaches the account (trpc/firm-scope.ts) reads its notes and
// adds their own; only a note's author changes or deletes it. The trail records that a note was
// added, changed or deleted, never its words: the trail is kept for good, and a deleted note's
// words should go with it. Clients never see these entries (activity/service.ts, ownActivity).
import { TRPCError } from "@trpc/server";
import type { FirmContext } from "../../trpc/context.ts";
import { findAccountForFirm } from "../accounts/firm-queries.ts";
import { ACCOUNT_NOT_FOUND } from "../accounts/service.ts";
import { accountClient, type ActivityAction, recordActivity } from "../activity/record.ts";
import type { Db } from "../../db/types.ts";
import { deleteNoteForFirm, findNoteForFirm, insertNoteForFirm, lockNoteForFirm, notesForFirm, updateNoteForFirm } from "./queries.ts";
import { type AccountNote, NOT_YOUR_NOTE, NOTE_NOT_FOUND } from "./schemas.ts";

async function accountInScope(db: Db, ctx: FirmContext, id: string) {
  const account = await findAccountForFirm(db, ctx.firmScope, id);
  if (!account) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
  return account;
}

function withMine(ctx: FirmContext, note: Omit<AccountNote, "mine">): AccountNote {
  return { ...note, mine: note.author_id === ctx.user.id };
}

export async function accountNotes(ctx: FirmContext, input: { id: string }): Promise<AccountNote[]> {
  await accountInScope(ctx.db, ctx, input.id);
  return (await notesForFirm(ctx.db, ctx.firmScope, input.id)).map((note) => withMine(ctx, note));
}

export async function createAccountNote(ctx: FirmContext, input: { id: string; body: string }): Promise<AccountNote> {
  const noteId = await ctx.db.transaction().execute(async (tx) => {
    const account = await accountInScope(tx, ctx, input.id);
    const { id } = await insertNoteForFirm(tx, { account_id: account.id, author_id: ctx.user.id, body: input.body, now: ctx.now() });
    await recordNoteActivity(tx, ctx, "account.note_add", account, id);
    return id;
  });
  return found(ctx, input.id, noteId);
}

/** The note, locked, when the asker wrote it: 404 when it is not there for them, 403 when it is someone else's. */
async function ownNote(tx: Db, ctx: FirmContext, input: { id: string; noteId: string }) {
  const account = await accountInScope(tx, ctx, input.id);
  const note = await lockNoteForFirm(tx, ctx.firmScope, input.id, input.noteId);
  if (!note) throw new TRPCError({ code: "NOT_FOUND", message: NOTE_NOT_FOUND });
  if (note.author_id !== ctx.user.id) throw new TRPCError({ code: "FORBIDDEN", message: NOT_YOUR_NOTE });
  return account;
}

export async function updateAccountNote(ctx: FirmContext, input: { id: string; noteId: string; body: string }): Promise<AccountNote> {
  await ctx.db.transaction().execute(async (tx) => {
    const account = await ownNote(tx, ctx, input);
    await updateNoteForFirm(tx, input.noteId, input.body, ctx.now());
    await recordNoteActivity(tx, ctx, "account.note_update", account, input.noteId);
  });
  return found(ctx, input.id, input.noteId);
}

export async function deleteAccountNote(ctx: FirmContext, input: { id: string; noteId: string }): Promise<{ success: true }> {
  await ctx.db.transaction().execute(async (tx) => {
    const account = await ownNote(tx, ctx, input);
    await deleteNoteForFirm(tx, input.noteId);
    await recordNoteActivity(tx, ctx, "account.note_delete", account, input.noteId);
  });
  return { success: true };
}

async function found(ctx: FirmContext, accountId: string, noteId: string): Promise<AccountNote> {
  const note = await findNoteForFirm(ctx.db, ctx.firmScope, accountId, noteId);
  // Deleted by its author between the change and this read.
  if (!note) throw new TRPCError({ code: "NOT_FOUND", message: NOTE_NOT_FOUND });
  return withMine(ctx, note);
}

function recordNoteActivity(db: Db, ctx: FirmContext, action: ActivityAction, account: { id: string; name: string }, noteId: string) {
  return recordActivity(db, ctx, { action, client: accountClient(account), target: { type: "account_note", id: noteId } });
}
