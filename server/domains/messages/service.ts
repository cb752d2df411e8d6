// Secure messages (docs/decisions.md, "Secure messages"): one conversation per client account with
// the firm, which every person of the account reads, and for each person who starts one a private
// conversation that only they and the firm read (docs/decisions.md, "Private conversations"). Each message is written with its attachments, its place in the thread, the other side's
// email burst and its activity row in one transaction; ownership is in every query (a client only
// ever names their own conversation, and only their own live documents).
import { TRPCError } from "@trpc/server";
import { accountClient, accountLabel, recordActivity } from "../activity/record.ts";
import { findAccountName } from "../accounts/queries.ts";
import { accountForFirm } from "../accounts/service.ts";
import { addMessageToInbox, markMessagesItemRead } from "../inbox/queries.ts";
import { FOREIGN_KEY_VIOLATION, isPgError } from "../../db/errors.ts";
import type { AuthedContext, ClientContext, FirmContext } from "../../trpc/context.ts";
import type { Page } from "../admin/schemas.ts";
import {
  accountReaders,
  clientUnreadTotal,
  notifyConversationChanged,
  countMessages,
  ensureTopFolder,
  findMessageRow,
  findThreadForFirm,
  findThreadId,
  firmUnreadTotal,
  recordFirmReader,
  insertMessage,
  listAttachments,
  listConversations,
  listMessageRows,
  liveDocumentIds,
  lockThread,
  lockThreadById,
  markThreadRead,
  recordInThread,
  type Side,
  type ThreadKey,
  unreadCount,
} from "./queries.ts";
import {
  CLIENT_NOT_FOUND,
  type ClientConversations,
  CONVERSATION_NOT_FOUND,
  type ConversationKind,
  type Conversation,
  type ConversationListInput,
  DOCUMENT_NOT_FOUND,
  type Message,
  type MessageListInput,
  MESSAGES_FOLDER_NAME,
  type MessagesFolder,
  NO_PRIVATE_ATTACHMENTS,
  type SendMessageBody,
  type Unread,
} from "./schemas.ts";

/** A message unread this long gets the other side an email (one per burst). */
const MESSAGE_MAIL_DELAY_MS = 5 * 60 * 1000;

/** The account a conversation is of. */
type Client = { id: string; name: string };

/**
 * A conversation a message goes to: its account, whose it is (the key) and, when the firm named it
 * by its id, that thread (which a private conversation of a deleted person has no other way to reach).
 */
type Target = { client: Client; key: ThreadKey & { isPrivate: boolean }; threadId?: string };

/** The caller's conversation of that kind: the account's, or their own private one. */
function ownKey(ctx: ClientContext, conversation: ConversationKind): ThreadKey & { isPrivate: boolean } {
  const isPrivate = conversation === "private";
  return { accountId: ctx.account.id, privateTo: isPrivate ? ctx.user.id : null, isPrivate };
}

/** The client writes to the firm. */
export function sendOwnMessage(ctx: ClientContext, input: SendMessageBody): Promise<Message> {
  return sendMessage(ctx, { client: ctx.account, key: ownKey(ctx, input.conversation) }, "client", input);
}

/** The firm writes to a client. */
export async function sendMessageToClient(ctx: FirmContext, input: Omit<SendMessageBody, "conversation"> & Who): Promise<Message> {
  const target = await conversationOrNotFound(ctx, input);
  // A private conversation's documents would be filed where the whole account reads them.
  if (target.key.isPrivate && input.document_ids.length > 0) throw new TRPCError({ code: "BAD_REQUEST", message: NO_PRIVATE_ATTACHMENTS });
  return sendMessage(ctx, target, "firm", input);
}

async function sendMessage(
  ctx: AuthedContext,
  target: Target,
  writer: Side,
  input: Pick<SendMessageBody, "text" | "document_ids">,
): Promise<Message> {
  const { client, key } = target;
  const documentIds = [...new Set(input.document_ids)];
  const text = input.text.trim();
  const now = ctx.now();
  const id = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const thread = target.threadId === undefined ? await lockThread(tx, key, now) : await lockThreadById(tx, target.threadId);
      if (!thread) throw new TRPCError({ code: "NOT_FOUND", message: CONVERSATION_NOT_FOUND });
      const live = await liveDocumentIds(tx, client.id, writer === "client" ? ctx.user.id : null, documentIds);
      if (live.size !== documentIds.length) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
      const message = await insertMessage(tx, {
        accountId: client.id,
        threadId: thread.id,
        senderId: ctx.user.id,
        senderRole: writer === "client" ? "client" : "admin",
        text,
        documentIds,
        now,
      });
      const mailDueAt = new Date(now.getTime() + MESSAGE_MAIL_DELAY_MS);
      await recordInThread(tx, thread.id, { seq: message.seq, now, writer, mailDueAt });
      const recipient: Side = writer === "client" ? "firm" : "client";
      if ((recipient === "client" ? thread.client_mail_due_at : thread.firm_mail_due_at) === null) {
        await ctx.jobs.send(
          "email",
          { kind: "message-waiting", clientId: client.id, threadId: thread.id, side: recipient, dueAt: mailDueAt.toISOString() },
          { tx, startAfter: mailDueAt },
        );
      }
      await recordActivity(tx, ctx, {
        action: "message.send",
        client: accountClient(client),
        target: { type: "message", id: message.id },
        detail: { attachments: documentIds.length },
      });
      // A client's message is work arriving for the firm; the firm's answer is its reading too.
      if (writer === "client") {
        await addMessageToInbox(tx, {
          account_id: client.id,
          actor_id: ctx.user.id,
          message_id: message.id,
          text,
          attachments: documentIds.length,
          at: now,
        });
      } else {
        await markMessagesItemRead(tx, { account_id: client.id, at: now, by: ctx.user.id });
      }
      await notifyConversationChanged(tx, key);
      return message.id;
    })
    .catch((err: unknown) => {
      // The client's account was deleted while the message was on its way.
      if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "NOT_FOUND", message: CLIENT_NOT_FOUND });
      throw err;
    });
  const [message] = await withAttachments(ctx, [await findMessageRow(ctx.db, id)]);
  return message!;
}

/** A page of the conversation, newest last; nextCursor fetches the older messages before it. */
async function conversationPage(
  ctx: AuthedContext,
  threadId: string | undefined,
  input: Omit<MessageListInput, "conversation">,
): Promise<Page<Message>> {
  if (threadId === undefined) return { items: [], nextCursor: null, total: 0 };
  const [rows, total] = await Promise.all([
    listMessageRows(ctx.db, threadId, { limit: input.limit + 1, beforeSeq: input.cursor }),
    countMessages(ctx.db, threadId),
  ]);
  const page = rows.slice(0, input.limit);
  const oldest = page.at(-1);
  return {
    items: await withAttachments(ctx, page.reverse()),
    nextCursor: rows.length > input.limit && oldest ? oldest.seq : null,
    total,
  };
}

type MessageRow = Awaited<ReturnType<typeof listMessageRows>>[number];

async function withAttachments(ctx: AuthedContext, rows: MessageRow[]): Promise<Message[]> {
  const attachments = await listAttachments(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map(({ seq: _, ...row }) => ({
    ...row,
    documents: attachments.filter((a) => a.message_id === row.id).map(({ message_id: _id, ...document }) => document),
  }));
}

/** The caller's conversation of that kind: never another person's private one, which no input names. */
export async function ownConversation(ctx: ClientContext, input: MessageListInput): Promise<Page<Message>> {
  return conversationPage(ctx, await findThreadId(ctx.db, ownKey(ctx, input.conversation)), input);
}

export async function clientConversation(ctx: FirmContext, input: Omit<MessageListInput, "conversation"> & Who): Promise<Page<Message>> {
  return conversationPage(ctx, await firmThreadId(ctx, await conversationOrNotFound(ctx, input)), input);
}

/** The firm's messages waiting for the caller: in the account's conversation and their own private one. */
export async function ownUnread(ctx: ClientContext): Promise<Unread> {
  return { unread: await clientUnreadTotal(ctx.db, ctx.account.id, ctx.user.id) };
}

/** The caller's conversations, with who reads each: the account's people by name, or only the caller. */
export async function ownConversations(ctx: ClientContext): Promise<ClientConversations> {
  const [accountThread, privateThread, readers] = await Promise.all([
    findThreadId(ctx.db, ownKey(ctx, "account")),
    findThreadId(ctx.db, ownKey(ctx, "private")),
    accountReaders(ctx.db, ctx.account.id),
  ]);
  const unreadOf = async (threadId: string | undefined) => (threadId === undefined ? 0 : unreadCount(ctx.db, threadId, "client"));
  return {
    account: { unread: await unreadOf(accountThread), readers },
    private: { started: privateThread !== undefined, unread: await unreadOf(privateThread) },
  };
}

/**
 * The account's read mark is one for all its people: one of them reading the account's conversation
 * reads it for the others. A private conversation's is its person's alone.
 */
export async function markOwnRead(ctx: ClientContext, conversation: ConversationKind = "account"): Promise<Unread> {
  const key = ownKey(ctx, conversation);
  const threadId = await findThreadId(ctx.db, key);
  if (threadId !== undefined) {
    await markThreadRead(ctx.db, threadId, "client");
    await notifyConversationChanged(ctx.db, key);
  }
  return ownUnread(ctx);
}

/** The firm has read the client's conversation; answers the firm's unread count over all conversations. */
export async function markClientRead(ctx: FirmContext, input: Who): Promise<Unread> {
  const target = await conversationOrNotFound(ctx, input);
  const threadId = await firmThreadId(ctx, target);
  await markMessagesItemRead(ctx.db, { account_id: target.client.id, at: ctx.now(), by: ctx.user.id });
  if (threadId !== undefined) {
    await markThreadRead(ctx.db, threadId, "firm");
    await recordFirmReader(ctx.db, threadId, ctx.user.id);
  }
  // Every admin's unread count follows.
  await notifyConversationChanged(ctx.db, target.key);
  return firmUnread(ctx);
}

export async function firmUnread(ctx: FirmContext): Promise<Unread> {
  return { unread: await firmUnreadTotal(ctx.db, ctx.firmScope) };
}

/** The conversations for the firm, latest message first. */
export async function conversationsForFirm(ctx: FirmContext, input: ConversationListInput): Promise<Page<Conversation>> {
  const offset = input.cursor ?? 0;
  const { items, total } = await listConversations(ctx.db, ctx.firmScope, { ...input, offset });
  const next = offset + items.length;
  return {
    items: items.map(({ username, email, unread, ...row }) => ({ ...row, client_label: accountLabel({ username, email }), unread: unread ?? 0 })),
    nextCursor: next < total ? next : null,
    total,
  };
}

/** The client's "Messages" folder, where documents uploaded for a message go (made on first need). */
export function ownMessagesFolder(ctx: ClientContext): Promise<MessagesFolder> {
  return ensureTopFolder(ctx.db, ctx.account.id, MESSAGES_FOLDER_NAME);
}

export async function clientMessagesFolder(ctx: FirmContext, input: Who): Promise<MessagesFolder> {
  const { client } = await conversationOrNotFound(ctx, input);
  return ensureTopFolder(ctx.db, client.id, MESSAGES_FOLDER_NAME);
}

/** A conversation named by a client person (their account's), by the account itself, or by its own id. */
type Who = { user_id?: string; account_id?: string; conversation_id?: string };

/** The conversation a firm path names, within the asker's reach (accountForFirm: 404 none, 409 several). */
async function conversationOrNotFound(ctx: FirmContext, who: Who): Promise<Target> {
  if (who.conversation_id !== undefined) {
    const thread = await findThreadForFirm(ctx.db, ctx.firmScope, who.conversation_id);
    const client = thread && (await findAccountName(ctx.db, thread.accountId));
    if (!thread || !client) throw new TRPCError({ code: "NOT_FOUND", message: CONVERSATION_NOT_FOUND });
    return { client, key: { accountId: client.id, privateTo: thread.privateTo, isPrivate: thread.isPrivate }, threadId: thread.id };
  }
  const client = await findAccountName(ctx.db, await accountForFirm(ctx.db, ctx.firmScope, who, CLIENT_NOT_FOUND));
  if (!client) throw new TRPCError({ code: "NOT_FOUND", message: CLIENT_NOT_FOUND });
  return { client, key: { accountId: client.id, privateTo: null, isPrivate: false } };
}

function firmThreadId(ctx: FirmContext, target: Target): Promise<string | undefined> {
  return target.threadId !== undefined ? Promise.resolve(target.threadId) : findThreadId(ctx.db, target.key);
}
