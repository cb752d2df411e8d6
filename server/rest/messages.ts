// Secure messages over REST: the client's own conversation, and the firm's list of conversations
// and each client's. Pages of messages come newest last; X-Next-Cursor fetches the older ones.
import { z } from "zod";
import {
  conversationListInput,
  clientConversationsOutput,
  conversationOutput,
  firmConversationBody,
  firmMessageListQuery,
  firmSendMessageBody,
  markReadInput,
  messageListInput,
  messageOutput,
  messagesFolderOutput,
  sendMessageBody,
  unreadOutput,
} from "../domains/messages/schemas.ts";
import { messageEventStream } from "./message-events.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

export const messageRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/messages",
    summary:
      "The caller's conversation with the firm, newest last: the latest `limit` messages, or those before `cursor` (X-Next-Cursor); `conversation`: the account's (read by all its people) or `private` (the caller's own with the firm)",
    tag: "messages",
    access: "client",
    query: messageListInput,
    paged: true,
    response: z.array(messageOutput),
    call: (c, r) => c.messages.list(r.query),
  }),
  procedureRoute({
    method: "post",
    path: "/messages",
    summary:
      "Write to the firm: text (up to 10,000 characters) and document_ids, the caller's own live documents (none in a private conversation), in `conversation` (`account` or `private`); the firm is mailed if it stays unread 5 minutes",
    tag: "messages",
    access: "client",
    body: sendMessageBody,
    response: messageOutput,
    status: 201,
    call: (c, r) => c.messages.send(r.body),
  }),
  {
    method: "get",
    path: "/messages/events",
    summary:
      'Server-sent events: `data: {"client_id"}` whenever the caller\'s conversation changes (a message, a read mark); Accept: text/event-stream',
    tag: "messages",
    access: "client",
    response: { description: "An event stream", contentType: "text/event-stream" },
    handler: messageEventStream("client"),
  },
  procedureRoute({
    method: "get",
    path: "/messages/unread",
    summary: "How many of the firm's messages the caller has not read",
    tag: "messages",
    access: "client",
    response: unreadOutput,
    call: (c) => c.messages.unread(),
  }),
  procedureRoute({
    method: "get",
    path: "/messages/conversations",
    summary:
      "The caller's conversations and who reads each: the account's (its people, named, and the firm) and the caller's private one (only they and the firm)",
    tag: "messages",
    access: "client",
    response: clientConversationsOutput,
    call: (c) => c.messages.conversations(),
  }),
  procedureRoute({
    method: "post",
    path: "/messages/read",
    summary: "The caller has read the conversation (`conversation`: the account's unless `private`); answers the caller's unread count",
    tag: "messages",
    access: "client",
    body: z.object({ conversation: markReadInput.unwrap().shape.conversation }),
    response: unreadOutput,
    call: (c, r) => c.messages.markRead(bodyOf(r)),
  }),
  procedureRoute({
    method: "post",
    path: "/messages/folder",
    summary: "The caller's Messages folder, where documents uploaded for a message go (created on first need)",
    tag: "messages",
    access: "client",
    response: messagesFolderOutput,
    call: (c) => c.messages.folder(),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/messages",
    summary: "Every client's conversation, latest message first, with the firm's unread count for each",
    tag: "admin",
    access: "admin",
    query: conversationListInput.extend({ offset: z.coerce.number().int().min(0).optional() }),
    paged: true,
    response: z.array(conversationOutput),
    call: (c, r) => {
      const { limit, cursor, offset } = r.query;
      return c.admin.messages.conversations({ limit, cursor: cursor ?? offset });
    },
  }),
  {
    method: "get",
    path: "/admin/messages/events",
    summary: 'Server-sent events: `data: {"client_id"}` whenever any conversation changes (a message, a read mark); Accept: text/event-stream',
    tag: "admin",
    access: "admin",
    response: { description: "An event stream", contentType: "text/event-stream" },
    handler: messageEventStream("firm"),
  },
  procedureRoute({
    method: "get",
    path: "/admin/messages/unread",
    summary: "How many clients' messages no one at the firm has read, over all conversations",
    tag: "admin",
    access: "admin",
    response: unreadOutput,
    call: (c) => c.admin.messages.unread(),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/messages/:user_id",
    summary:
      "One client account's conversation (:user_id an account's id, or a person's id for their one account), newest last: the latest `limit` messages, or those before `cursor` (X-Next-Cursor)",
    tag: "admin",
    access: "admin",
    query: firmMessageListQuery,
    paged: true,
    response: z.array(messageOutput),
    call: (c, r) => c.admin.messages.list({ ...r.query, user_id: r.params.user_id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/messages/:user_id",
    summary:
      "Write to a client account (:user_id an account's id, or a person's id for their one account): text (up to 10,000 characters) and document_ids, its live documents; every contact with notify is mailed if it stays unread 5 minutes",
    tag: "admin",
    access: "admin",
    body: firmSendMessageBody,
    response: messageOutput,
    status: 201,
    call: (c, r) => c.admin.messages.send({ ...bodyOf(r), user_id: r.params.user_id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/messages/:user_id/read",
    summary: "The firm has read this client's conversation; answers the firm's unread count over all conversations",
    tag: "admin",
    access: "admin",
    body: firmConversationBody,
    response: unreadOutput,
    call: (c, r) => c.admin.messages.markRead({ ...bodyOf(r), user_id: r.params.user_id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/messages/:user_id/folder",
    summary: "The client's Messages folder, for the firm's upload of a message's attachment (created on first need)",
    tag: "admin",
    access: "admin",
    response: messagesFolderOutput,
    call: (c, r) => c.admin.messages.folder({ user_id: r.params.user_id }),
  }),
];
