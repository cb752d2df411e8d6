// Every statement of the firm's notes on client accounts. Each one that finds notes takes the
// asker's scope (trpc/firm-scope.ts): a note of an account outside it does not exist for them.
import type { Db } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";

const FORMER_STAFF = "Former staff member";

function noteColumns(db: Db) {
  return db
    .selectFrom("account_notes as n")
    .leftJoin("users as u", "u.id", "n.author_id")
    .select(["n.id", "n.account_id", "n.body", "n.author_id", "u.name as author_name", "n.created_at", "n.updated_at"]);
}

type NoteRow = {
  id: string;
  account_id: string;
  body: string;
  author_id: string | null;
  author_name: string | null;
  created_at: Date;
  updated_at: Date;
};

function named(row: NoteRow) {
  return { ...row, author_name: row.author_name ?? FORMER_STAFF };
}

/** An account's notes, newest first; at most 500 (a record's notes are read, not paged). */
export async function notesForFirm(db: Db, scope: FirmScope, accountId: string) {
  const rows = await noteColumns(db)
    .where("n.account_id", "=", accountId)
    .where(inFirmScope(scope, "n.account_id"))
    .orderBy("n.created_at", "desc")
    .orderBy("n.id", "desc")
    .limit(500)
    .execute();
  return rows.map(named);
}

export async function findNoteForFirm(db: Db, scope: FirmScope, accountId: string, noteId: string) {
  const row = await noteColumns(db)
    .where("n.id", "=", noteId)
    .where("n.account_id", "=", accountId)
    .where(inFirmScope(scope, "n.account_id"))
    .executeTakeFirst();
  return row && named(row);
}

/** The note, locked for its change: two edits of one note go one after the other. */
export async function lockNoteForFirm(db: Db, scope: FirmScope, accountId: string, noteId: string) {
  return db
    .selectFrom("account_notes as n")
    .select(["n.id", "n.author_id", "n.body"])
    .where("n.id", "=", noteId)
    .where("n.account_id", "=", accountId)
    .where(inFirmScope(scope, "n.account_id"))
    .forUpdate()
    .executeTakeFirst();
}

export async function insertNoteForFirm(db: Db, note: { account_id: string; author_id: string; body: string; now: Date }) {
  return db
    .insertInto("account_notes")
    .values({ account_id: note.account_id, author_id: note.author_id, body: note.body, created_at: note.now, updated_at: note.now })
    .returning("id")
    .executeTakeFirstOrThrow();
}

export async function updateNoteForFirm(db: Db, noteId: string, body: string, now: Date) {
  await db.updateTable("account_notes").set({ body, updated_at: now }).where("id", "=", noteId).execute();
}

export async function deleteNoteForFirm(db: Db, noteId: string) {
  await db.deleteFrom("account_notes").where("id", "=", noteId).execute();
}
