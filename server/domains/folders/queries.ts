import { sql, type Transaction, type Updateable } from "kysely";
import type { Database, Db, FoldersTable } from "../../db/types.ts";
import type { CreateFolderInput, Folder } from "./schemas.ts";

// The spec's folder: no timestamps. A client with a thousand folders lists them all at once, and
// parsing and serializing a date per folder was a third of that listing's time.
const folderColumns = ["id", "name", "parent_folder_id", "color", "is_private"] as const;

/** A folder a person of the account sees: not another person's private one (docs/decisions.md, "Private folders"). */
export function folderSeenBy(personId: string) {
  return sql<boolean>`(not folders.is_private or folders.private_to = ${personId}::uuid)`;
}

/** The account's folders: those `personId` sees, or all of them for the firm (null). */
export async function listFolders(db: Db, accountId: string, personId: string | null): Promise<Folder[]> {
  let query = db.selectFrom("folders").select(folderColumns).where("account_id", "=", accountId);
  if (personId !== null) query = query.where(folderSeenBy(personId));
  return query
    .orderBy((eb) => eb.fn("lower", ["name"]))
    .orderBy("id")
    .execute();
}

/** Whether the folder is the account's (and, for a person, one they see); with its privacy, to pass on to what is made in it. */
export async function findOwnFolder(db: Db, accountId: string, personId: string | null, folderId: string) {
  let query = db.selectFrom("folders").select(["id", "is_private", "private_to"]).where("id", "=", folderId).where("account_id", "=", accountId);
  if (personId !== null) query = query.where(folderSeenBy(personId));
  return query.executeTakeFirst();
}

export async function isOwnFolder(db: Db, accountId: string, folderId: string): Promise<boolean> {
  return (await findOwnFolder(db, accountId, null, folderId)) !== undefined;
}

export async function insertFolder(db: Db, accountId: string, input: CreateFolderInput, privateTo: string | null): Promise<Folder> {
  return db
    .insertInto("folders")
    .values({
      account_id: accountId,
      parent_folder_id: input.parent_folder_id,
      name: input.name,
      color: input.color,
      is_private: privateTo !== null,
      private_to: privateTo,
    })
    .returning(folderColumns)
    .executeTakeFirstOrThrow();
}

/** The deleted folder's name (undefined: no such folder of the account's); a folder still holding anything raises a foreign-key violation. */
export async function deleteFolder(db: Db, accountId: string, personId: string, folderId: string): Promise<{ name: string } | undefined> {
  return db
    .deleteFrom("folders")
    .where("id", "=", folderId)
    .where("account_id", "=", accountId)
    .where(folderSeenBy(personId))
    .returning("name")
    .executeTakeFirst();
}

/**
 * Locks the account's row (NO KEY UPDATE, as the upload quota check does) until the transaction
 * ends: one account's folder moves then happen one at a time, whoever of its people makes them, so
 * two moves checked side by side cannot together make a cycle. False when the account is gone.
 */
export async function lockFolderMoves(db: Transaction<Database>, accountId: string): Promise<boolean> {
  const row = await db.selectFrom("accounts").select("id").where("id", "=", accountId).forNoKeyUpdate().executeTakeFirst();
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
  accountId: string,
  personId: string,
  folderId: string,
  changes: Pick<Updateable<FoldersTable>, "name" | "color" | "parent_folder_id">,
): Promise<Folder | undefined> {
  return db
    .updateTable("folders")
    .set(changes)
    .where("id", "=", folderId)
    .where("account_id", "=", accountId)
    .where(folderSeenBy(personId))
    .returning(folderColumns)
    .executeTakeFirst();
}
