import { sql } from "kysely";
import type { Db } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { ConversationListInput } from "./schemas.ts";

/** Whose read mark and email burst: the client's, or the firm's (any admin). */
export type Side = "client" | "firm";

const READ_SEQ = { client: "client_read_seq", firm: "firm_read_seq" } as const;
const MAIL_DUE = { client: "client_mail_due_at", firm: "firm_mail_due_at" } as const;
/** The messages a side reads are the ones the other side wrote. */
const WRITTEN_FOR = { client: "admin", firm: "client" } as const;

/** The account's thread, created with its first message, and locked: one account's messages are written one at a time. */
export function lockThread(db: Db, accountId: string, now: Date) {
  return db
    .insertInto("message_threads")
    .values({ account_id: accountId, last_message_at: now })
    .onConflict((oc) => oc.column("account_id").doUpdateSet({ account_id: (eb) => eb.ref("excluded.account_id") }))
    .returning(["client_mail_due_at", "firm_mail_due_at"])
    .executeTakeFirstOrThrow();
}

/** Which of these ids are the account's own live documents. */
export async function liveDocumentIds(db: Db, accountId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("documents")
    .select("id")
    .where("id", "in", ids)
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .forShare()
    .execute();
  return new Set(rows.map((row) => row.id));
}

export async function insertMessage(
  db: Db,
  message: { accountId: string; senderId: string; senderRole: "client" | "admin"; text: string; documentIds: readonly string[]; now: Date },
): Promise<{ id: string; seq: number }> {
  const row = await db
    .insertInto("messages")
    .values({
      account_id: message.accountId,
      sender_id: message.senderId,
      sender_role: message.senderRole,
      text: message.text,
      created_at: message.now,
    })
    .returning(["id", "seq"])
    .executeTakeFirstOrThrow();
  if (message.documentIds.length > 0) {
    await db
      .insertInto("message_attachments")
      .values(message.documentIds.map((document_id) => ({ message_id: row.id, document_id })))
      .execute();
  }
  return row;
}

/**
 * After a message: it is the thread's last, its writer has read up to it, and the other side's
 * email burst is due at `mailDueAt` unless one is already open.
 */
export async function recordInThread(db: Db, accountId: string, message: { seq: number; now: Date; writer: Side; mailDueAt: Date }): Promise<void> {
  const recipient: Side = message.writer === "client" ? "firm" : "client";
  await db
    .updateTable("message_threads")
    .set((eb) => ({
      last_seq: message.seq,
      last_message_at: message.now,
      [READ_SEQ[message.writer]]: message.seq,
      [MAIL_DUE[recipient]]: eb.fn.coalesce(MAIL_DUE[recipient], eb.val(message.mailDueAt)),
    }))
    .where("account_id", "=", accountId)
    .execute();
}

/** A page of the client's conversation: up to `limit` messages before `beforeSeq` (the newest without it), newest first. */
export function listMessageRows(db: Db, accountId: string, page: { limit: number; beforeSeq?: number }) {
  let query = db
    .selectFrom("messages")
    .leftJoin("users", "users.id", "messages.sender_id")
    .select([
      "messages.id",
      "messages.seq",
      "messages.text",
      "messages.sender_role",
      "users.name as sender_name",
      "messages.sender_id",
      "messages.created_at",
    ])
    .where("messages.account_id", "=", accountId);
  if (page.beforeSeq !== undefined) query = query.where("messages.seq", "<", page.beforeSeq);
  return query.orderBy("messages.seq", "desc").limit(page.limit).execute();
}

export function findMessageRow(db: Db, id: string) {
  return db
    .selectFrom("messages")
    .leftJoin("users", "users.id", "messages.sender_id")
    .select([
      "messages.id",
      "messages.seq",
      "messages.text",
      "messages.sender_role",
      "users.name as sender_name",
      "messages.sender_id",
      "messages.created_at",
    ])
    .where("messages.id", "=", id)
    .executeTakeFirstOrThrow();
}

export async function countMessages(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom("messages")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("account_id", "=", accountId)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The live documents attached to these messages, by name. */
export function listAttachments(db: Db, messageIds: readonly string[]) {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("message_attachments")
    .innerJoin("documents", "documents.id", "message_attachments.document_id")
    .select(["message_attachments.message_id", "documents.id", "documents.original_filename", "documents.file_size", "documents.content_type"])
    .where("message_attachments.message_id", "in", messageIds)
    .where("documents.deleted_at", "is", null)
    .orderBy("documents.original_filename")
    .orderBy("documents.id")
    .execute();
}

/** The messages waiting for `side` in the client's conversation. */
export async function unreadCount(db: Db, accountId: string, side: Side): Promise<number> {
  const row = await db
    .selectFrom("messages")
    .innerJoin("message_threads", "message_threads.account_id", "messages.account_id")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("messages.account_id", "=", accountId)
    .where("messages.sender_role", "=", WRITTEN_FOR[side])
    .whereRef("messages.seq", ">", `message_threads.${READ_SEQ[side]}`)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The side has read everything in the conversation so far. */
/** The side has read everything: nothing waits for it, so its email burst closes too. */
export async function markThreadRead(db: Db, accountId: string, side: Side): Promise<void> {
  await db
    .updateTable("message_threads")
    .set((eb) => ({ [READ_SEQ[side]]: eb.ref("last_seq"), [MAIL_DUE[side]]: null }))
    .where("account_id", "=", accountId)
    .execute();
}

/** Who on the firm's side read the conversation (shown beside it in the firm's list). */
export async function recordFirmReader(db: Db, accountId: string, userId: string): Promise<void> {
  await db.updateTable("message_threads").set({ firm_read_by: userId }).where("account_id", "=", accountId).execute();
}

/**
 * The firm's unread count over every conversation: only threads with something past the firm's
 * read mark are counted into (by the account's own index), not every message ever written.
 */
export async function firmUnreadTotal(db: Db, scope: FirmScope): Promise<number> {
  const row = await db
    .selectFrom("message_threads")
    .select(
      sql<number>`coalesce(sum((
        select count(*) from messages
        where messages.account_id = message_threads.account_id and messages.sender_role = 'client' and messages.seq > message_threads.firm_read_seq
      )), 0)::int`.as("count"),
    )
    .whereRef("message_threads.last_seq", ">", "message_threads.firm_read_seq")
    .where(inFirmScope(scope, "message_threads.account_id"))
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The conversations, latest message first, each with its client, last message and the firm's unread count. */
export async function listConversations(db: Db, scope: FirmScope, page: ConversationListInput & { offset: number }) {
  const [items, count] = await Promise.all([
    db
      .selectFrom("message_threads")
      .innerJoin("accounts", "accounts.id", "message_threads.account_id")
      // Named by the account's first owner, as the conversation was by its client before.
      .leftJoin("account_owners as users", "users.account_id", "message_threads.account_id")
      .leftJoin("messages as last", "last.seq", "message_threads.last_seq")
      .leftJoin("users as reader", "reader.id", "message_threads.firm_read_by")
      .select((eb) => [
        sql<string>`coalesce(users.id, message_threads.account_id)`.as("user_id"),
        "message_threads.account_id",
        sql<string>`coalesce(users.name, accounts.name)`.as("client_name"),
        "users.username",
        sql<string>`coalesce(users.email, accounts.name)`.as("email"),
        "message_threads.last_message_at",
        "last.sender_role as last_sender_role",
        sql<string>`coalesce(left(last.text, 200), '')`.as("last_text"),
        "reader.name as read_by_name",
        eb
          .selectFrom("messages")
          .select(sql<number>`count(*)::int`.as("count"))
          .whereRef("messages.account_id", "=", "message_threads.account_id")
          .where("messages.sender_role", "=", "client")
          .whereRef("messages.seq", ">", "message_threads.firm_read_seq")
          .as("unread"),
      ])
      .where(inFirmScope(scope, "message_threads.account_id"))
      .orderBy("message_threads.last_message_at", "desc")
      .orderBy("message_threads.account_id")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom("message_threads")
      .select(sql<number>`count(*)::int`.as("total"))
      .where(inFirmScope(scope, "message_threads.account_id"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: count.total };
}

/**
 * Closes the side's email burst due at `dueAt` (a message after this opens the next) and answers
 * how many messages wait for that side now; undefined when that burst is no longer open (read
 * meanwhile, or the conversation gone).
 */
export async function takeMailBurst(db: Db, accountId: string, side: Side, dueAt: Date): Promise<number | undefined> {
  const thread = await db
    .updateTable("message_threads")
    .set({ [MAIL_DUE[side]]: null })
    .where("account_id", "=", accountId)
    // Only the burst this job was queued for: one closed by reading (and any later one) is not its own.
    .where(MAIL_DUE[side], "=", dueAt)
    .returning("account_id")
    .executeTakeFirst();
  if (!thread) return undefined;
  return unreadCount(db, accountId, side);
}

/** The client's top-level folder of that name, created when missing (a concurrent creation is found, not duplicated). */
export async function ensureTopFolder(db: Db, accountId: string, name: string): Promise<{ id: string; name: string }> {
  const existing = await findTopFolder(db, accountId, name);
  if (existing) return existing;
  await sql`insert into folders (account_id, parent_folder_id, name) values (${accountId}, null, ${name}) on conflict do nothing`.execute(db);
  const created = await findTopFolder(db, accountId, name);
  if (!created) throw new Error("messages folder not created");
  return created;
}

function findTopFolder(db: Db, accountId: string, name: string) {
  return db
    .selectFrom("folders")
    .select(["id", "name"])
    .where("account_id", "=", accountId)
    .where("parent_folder_id", "is", null)
    .where(sql<string>`lower(name)`, "=", name.toLowerCase())
    .executeTakeFirst();
}

/** The channel events.ts LISTENs on. */
export const MESSAGES_CHANNEL = "portal_messages";

/** Tells every instance that the account's conversation changed, when `tx` commits (events.ts). */
export async function notifyConversationChanged(tx: Db, accountId: string): Promise<void> {
  await sql`select pg_notify(${MESSAGES_CHANNEL}, ${accountId})`.execute(tx);
}

/** The account a firm's mail names (by its first owner, else its own name). */
export async function findMailAccount(db: Db, accountId: string) {
  return db
    .selectFrom("accounts")
    .leftJoin("account_owners as owner", "owner.account_id", "accounts.id")
    .select([sql<string>`coalesce(owner.name, accounts.name)`.as("name"), "owner.username", sql<string>`coalesce(owner.email, '')`.as("email")])
    .where("accounts.id", "=", accountId)
    .executeTakeFirst();
}
