import { sql } from "kysely";
import type { Db } from "../../db/types.ts";
import { documentSeenBy } from "../documents/queries.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { ConversationListInput } from "./schemas.ts";

/** Whose read mark and email burst: the client's, or the firm's (any admin). */
export type Side = "client" | "firm";

const READ_SEQ = { client: "client_read_seq", firm: "firm_read_seq" } as const;
const MAIL_DUE = { client: "client_mail_due_at", firm: "firm_mail_due_at" } as const;
/** The messages a side reads are the ones the other side wrote. */
const WRITTEN_FOR = { client: "admin", firm: "client" } as const;

/**
 * A conversation of an account (docs/decisions.md, "Private conversations"): its shared one, which
 * every person of the account reads (`privateTo` null), or one person's private one with the firm.
 */
export type ThreadKey = { accountId: string; privateTo: string | null };

/** A conversation as the firm names it: its thread, its account and (private) the person who reads it. */
export type ThreadRef = { id: string; accountId: string; isPrivate: boolean; privateTo: string | null };

type LockedThread = { id: string; client_mail_due_at: Date | null; firm_mail_due_at: Date | null };

/** The conversation's thread, created with its first message, and locked: its messages are written one at a time. */
export async function lockThread(db: Db, key: ThreadKey, now: Date): Promise<LockedThread> {
  const conflict = key.privateTo === null ? sql`(account_id) where not is_private` : sql`(account_id, private_to) where is_private`;
  const { rows } = await sql<LockedThread>`
    insert into message_threads (account_id, is_private, private_to, last_message_at)
    values (${key.accountId}, ${key.privateTo !== null}, ${key.privateTo}, ${now})
    on conflict ${conflict} do update set account_id = excluded.account_id
    returning id, client_mail_due_at, firm_mail_due_at`.execute(db);
  return rows[0]!;
}

/** A thread the firm named by its id, locked as lockThread locks it; undefined when it is gone. */
export function lockThreadById(db: Db, threadId: string): Promise<LockedThread | undefined> {
  return db
    .selectFrom("message_threads")
    .select(["id", "client_mail_due_at", "firm_mail_due_at"])
    .where("id", "=", threadId)
    .forUpdate()
    .executeTakeFirst();
}

/** The thread of that conversation, if it has begun. */
export async function findThreadId(db: Db, key: ThreadKey): Promise<string | undefined> {
  let query = db.selectFrom("message_threads").select("id").where("account_id", "=", key.accountId);
  query =
    key.privateTo === null ? query.where("is_private", "=", false) : query.where("is_private", "=", true).where("private_to", "=", key.privateTo);
  return (await query.executeTakeFirst())?.id;
}

/** A thread by its id, within the firm's reach. */
export async function findThreadForFirm(db: Db, scope: FirmScope, threadId: string): Promise<ThreadRef | undefined> {
  const row = await db
    .selectFrom("message_threads")
    .select(["id", "account_id", "is_private", "private_to"])
    .where("id", "=", threadId)
    .where(inFirmScope(scope, "message_threads.account_id"))
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, isPrivate: row.is_private, privateTo: row.private_to };
}

/** The threads of an account one person reads: the shared one and their own private one. */
function visibleThreads(db: Db, accountId: string, personId: string) {
  return db
    .selectFrom("message_threads")
    .where("message_threads.account_id", "=", accountId)
    .where((eb) => eb.or([eb("message_threads.is_private", "=", false), eb("message_threads.private_to", "=", personId)]));
}

/** Whether this message is one the person reads (its thread is the account's shared one or their own). */
export function messageVisibleTo(personId: string) {
  return sql<boolean>`exists (
    select 1 from message_threads t where t.id = messages.thread_id and (not t.is_private or t.private_to = ${personId})
  )`;
}

/**
 * Which of these ids are the account's own live documents that the writer may attach: for a person
 * of the account (`personId`), those they see; for the firm (null), any but a PDF held for a signature
 * request not sent yet, which no message shares before the request does.
 */
export async function liveDocumentIds(db: Db, accountId: string, personId: string | null, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("documents")
    .select("id")
    .where("id", "in", ids)
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .where("held_for_signature", "=", false)
    .where(personId === null ? sql<boolean>`true` : documentSeenBy(personId))
    .forShare()
    .execute();
  return new Set(rows.map((row) => row.id));
}

export async function insertMessage(
  db: Db,
  message: {
    accountId: string;
    threadId: string;
    senderId: string;
    senderRole: "client" | "admin";
    text: string;
    documentIds: readonly string[];
    now: Date;
  },
): Promise<{ id: string; seq: number }> {
  const row = await db
    .insertInto("messages")
    .values({
      account_id: message.accountId,
      thread_id: message.threadId,
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
export async function recordInThread(db: Db, threadId: string, message: { seq: number; now: Date; writer: Side; mailDueAt: Date }): Promise<void> {
  const recipient: Side = message.writer === "client" ? "firm" : "client";
  await db
    .updateTable("message_threads")
    .set((eb) => ({
      last_seq: message.seq,
      last_message_at: message.now,
      [READ_SEQ[message.writer]]: message.seq,
      [MAIL_DUE[recipient]]: eb.fn.coalesce(MAIL_DUE[recipient], eb.val(message.mailDueAt)),
    }))
    .where("id", "=", threadId)
    .execute();
}

/** A page of a conversation: up to `limit` messages before `beforeSeq` (the newest without it), newest first. */
export function listMessageRows(db: Db, threadId: string, page: { limit: number; beforeSeq?: number }) {
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
    .where("messages.thread_id", "=", threadId);
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

export async function countMessages(db: Db, threadId: string): Promise<number> {
  const row = await db
    .selectFrom("messages")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("thread_id", "=", threadId)
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

/** The messages waiting for `side` in a conversation. */
export async function unreadCount(db: Db, threadId: string, side: Side): Promise<number> {
  const row = await db
    .selectFrom("messages")
    .innerJoin("message_threads", "message_threads.id", "messages.thread_id")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("messages.thread_id", "=", threadId)
    .where("messages.sender_role", "=", WRITTEN_FOR[side])
    .whereRef("messages.seq", ">", `message_threads.${READ_SEQ[side]}`)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The messages waiting for one person of an account: in the shared conversation and their own private one. */
export async function clientUnreadTotal(db: Db, accountId: string, personId: string): Promise<number> {
  const row = await visibleThreads(db, accountId, personId)
    .select(
      sql<number>`coalesce(sum((
        select count(*) from messages
        where messages.thread_id = message_threads.id and messages.sender_role = 'admin' and messages.seq > message_threads.client_read_seq
      )), 0)::int`.as("count"),
    )
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The side has read everything: nothing waits for it, so its email burst closes too. */
export async function markThreadRead(db: Db, threadId: string, side: Side): Promise<void> {
  await db
    .updateTable("message_threads")
    .set((eb) => ({ [READ_SEQ[side]]: eb.ref("last_seq"), [MAIL_DUE[side]]: null }))
    .where("id", "=", threadId)
    .execute();
}

/** Who on the firm's side read the conversation (shown beside it in the firm's list). */
export async function recordFirmReader(db: Db, threadId: string, userId: string): Promise<void> {
  await db.updateTable("message_threads").set({ firm_read_by: userId }).where("id", "=", threadId).execute();
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
        where messages.thread_id = message_threads.id and messages.sender_role = 'client' and messages.seq > message_threads.firm_read_seq
      )), 0)::int`.as("count"),
    )
    .whereRef("message_threads.last_seq", ">", "message_threads.firm_read_seq")
    .where(inFirmScope(scope, "message_threads.account_id"))
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The conversations, latest message first, each with its client (and whose it is, when private), last message and the firm's unread count. */
export async function listConversations(db: Db, scope: FirmScope, page: ConversationListInput & { offset: number }) {
  const [items, count] = await Promise.all([
    db
      .selectFrom("message_threads")
      .innerJoin("accounts", "accounts.id", "message_threads.account_id")
      // Named by the account's first owner, as the conversation was by its client before.
      .leftJoin("account_owners as users", "users.account_id", "message_threads.account_id")
      .leftJoin("messages as last", "last.seq", "message_threads.last_seq")
      .leftJoin("users as reader", "reader.id", "message_threads.firm_read_by")
      .leftJoin("users as private_reader", "private_reader.id", "message_threads.private_to")
      .select((eb) => [
        "message_threads.id as conversation_id",
        "message_threads.is_private",
        "private_reader.name as private_to_name",
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
          .whereRef("messages.thread_id", "=", "message_threads.id")
          .where("messages.sender_role", "=", "client")
          .whereRef("messages.seq", ">", "message_threads.firm_read_seq")
          .as("unread"),
      ])
      .where(inFirmScope(scope, "message_threads.account_id"))
      .orderBy("message_threads.last_message_at", "desc")
      .orderBy("message_threads.id")
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
export async function takeMailBurst(db: Db, threadId: string, side: Side, dueAt: Date): Promise<number | undefined> {
  const thread = await db
    .updateTable("message_threads")
    .set({ [MAIL_DUE[side]]: null })
    .where("id", "=", threadId)
    // Only the burst this job was queued for: one closed by reading (and any later one) is not its own.
    .where(MAIL_DUE[side], "=", dueAt)
    .returning("account_id")
    .executeTakeFirst();
  if (!thread) return undefined;
  return unreadCount(db, threadId, side);
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

/**
 * Tells every instance that a conversation of the account changed, when `tx` commits (events.ts):
 * the account's id for its shared conversation; for a private one, the account's id, ":" and the
 * person's (or "nobody" once they are deleted), so that only that person of the account hears it.
 */
export async function notifyConversationChanged(tx: Db, key: ThreadKey & { isPrivate?: boolean }): Promise<void> {
  const notice = key.privateTo === null && !key.isPrivate ? key.accountId : `${key.accountId}:${key.privateTo ?? "nobody"}`;
  await sql`select pg_notify(${MESSAGES_CHANNEL}, ${notice})`.execute(tx);
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

/** The people of the account who read its shared conversation (those with portal access), by name. */
export function accountReaders(db: Db, accountId: string) {
  return db
    .selectFrom("account_contacts")
    .innerJoin("users", "users.id", "account_contacts.user_id")
    .select(["users.id", "users.name"])
    .where("account_contacts.account_id", "=", accountId)
    .where("account_contacts.portal_access", "=", true)
    .orderBy("account_contacts.created_at")
    .orderBy("users.id")
    .execute();
}

/** The person of a private conversation, while they are still of the account with portal access and mail on. */
export function privateReader(db: Db, accountId: string, personId: string) {
  return db
    .selectFrom("account_contacts")
    .innerJoin("users", "users.id", "account_contacts.user_id")
    .select(["users.name", "users.email", "users.email_verified_at"])
    .where("account_contacts.account_id", "=", accountId)
    .where("account_contacts.user_id", "=", personId)
    .where("account_contacts.portal_access", "=", true)
    .where("account_contacts.notify", "=", true)
    .executeTakeFirst();
}
