// Secure messages (docs/decisions.md, "Secure messages"): one conversation per client with the
// firm. Each message is written with its attachments, its place in the thread, the other side's
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
  notifyConversationChanged,
  countMessages,
  ensureTopFolder,
  findMessageRow,
  firmUnreadTotal,
  recordFirmReader,
  insertMessage,
  listAttachments,
  listConversations,
  listMessageRows,
  liveDocumentIds,
  lockThread,
  markThreadRead,
  recordInThread,
  type Side,
  unreadCount,
} from "./queries.ts";
import {
  CLIENT_NOT_FOUND,
  type Conversation,
  type ConversationListInput,
  DOCUMENT_NOT_FOUND,
  type Message,
  type MessageListInput,
  MESSAGES_FOLDER_NAME,
  type MessagesFolder,
  type SendMessageBody,
  type Unread,
} from "./schemas.ts";

/** A message unread this long gets the other side an email (one per burst). */
const MESSAGE_MAIL_DELAY_MS = 5 * 60 * 1000;

/** The account a conversation is of. */
type Client = { id: string; name: string };

/** The client writes to the firm. */
export function sendOwnMessage(ctx: ClientContext, input: SendMessageBody): Promise<Message> {
  return sendMessage(ctx, ctx.account, "client", input);
}

/** The firm writes to a client. */
export async function sendMessageToClient(ctx: FirmContext, input: SendMessageBody & Who): Promise<Message> {
  return sendMessage(ctx, await clientOrNotFound(ctx, input), "firm", input);
}

async function sendMessage(ctx: AuthedContext, client: Client, writer: Side, input: SendMessageBody): Promise<Message> {
  const documentIds = [...new Set(input.document_ids)];
  const text = input.text.trim();
  const now = ctx.now();
  const id = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const thread = await lockThread(tx, client.id, now);
      const live = await liveDocumentIds(tx, client.id, documentIds);
      if (live.size !== documentIds.length) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
      const message = await insertMessage(tx, {
        accountId: client.id,
        senderId: ctx.user.id,
        senderRole: writer === "client" ? "client" : "admin",
        text,
        documentIds,
        now,
      });
      const mailDueAt = new Date(now.getTime() + MESSAGE_MAIL_DELAY_MS);
      await recordInThread(tx, client.id, { seq: message.seq, now, writer, mailDueAt });
      const recipient: Side = writer === "client" ? "firm" : "client";
      if ((recipient === "client" ? thread.client_mail_due_at : thread.firm_mail_due_at) === null) {
        await ctx.jobs.send(
          "email",
          { kind: "message-waiting", clientId: client.id, side: recipient, dueAt: mailDueAt.toISOString() },
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
      await notifyConversationChanged(tx, client.id);
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
async function conversationPage(ctx: AuthedContext, clientId: string, input: MessageListInput): Promise<Page<Message>> {
  const [rows, total] = await Promise.all([
    listMessageRows(ctx.db, clientId, { limit: input.limit + 1, beforeSeq: input.cursor }),
    countMessages(ctx.db, clientId),
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

export function ownConversation(ctx: ClientContext, input: MessageListInput): Promise<Page<Message>> {
  return conversationPage(ctx, ctx.account.id, input);
}

export async function clientConversation(ctx: FirmContext, input: MessageListInput & Who): Promise<Page<Message>> {
  const client = await clientOrNotFound(ctx, input);
  return conversationPage(ctx, client.id, input);
}

export async function ownUnread(ctx: ClientContext): Promise<Unread> {
  return { unread: await unreadCount(ctx.db, ctx.account.id, "client") };
}

/** The account's read mark is one for all its people: one of them reading reads it for the others. */
export async function markOwnRead(ctx: ClientContext): Promise<Unread> {
  await markThreadRead(ctx.db, ctx.account.id, "client");
  await notifyConversationChanged(ctx.db, ctx.account.id);
  return ownUnread(ctx);
}

/** The firm has read the client's conversation; answers the firm's unread count over all conversations. */
export async function markClientRead(ctx: FirmContext, input: Who): Promise<Unread> {
  const client = await clientOrNotFound(ctx, input);
  await markThreadRead(ctx.db, client.id, "firm");
  await markMessagesItemRead(ctx.db, { account_id: client.id, at: ctx.now(), by: ctx.user.id });
  await recordFirmReader(ctx.db, client.id, ctx.user.id);
  // Every admin's unread count follows.
  await notifyConversationChanged(ctx.db, client.id);
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
  const client = await clientOrNotFound(ctx, input);
  return ensureTopFolder(ctx.db, client.id, MESSAGES_FOLDER_NAME);
}

/** The account a firm path names by a client person's id (accountForFirm: 404 none, 409 several). */
/** A conversation named by a client person (their account) or by the account itself. */
type Who = { user_id?: string; account_id?: string };

async function clientOrNotFound(ctx: FirmContext, who: Who): Promise<Client> {
  const client = await findAccountName(ctx.db, await accountForFirm(ctx.db, ctx.firmScope, who, CLIENT_NOT_FOUND));
  if (!client) throw new TRPCError({ code: "NOT_FOUND", message: CLIENT_NOT_FOUND });
  return client;
}
