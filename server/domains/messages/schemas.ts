import { z } from "zod";
import { idSchema } from "../shared-schemas.ts";

export const MAX_MESSAGE_LENGTH = 10_000;
/** Documents one message can carry. */
const MAX_ATTACHMENTS = 20;
const EMPTY_MESSAGE = "Write a message or attach a document";
export const CLIENT_NOT_FOUND = "Client not found";
export const DOCUMENT_NOT_FOUND = "Document not found";
export const CONVERSATION_NOT_FOUND = "Conversation not found";
/**
 * A private conversation carries no documents: an attachment is filed in the account's folders,
 * which every person of the account reads (docs/decisions.md, "Private conversations").
 */
export const NO_PRIVATE_ATTACHMENTS =
  "A private conversation cannot carry documents: they would be filed in your account's folders, which everyone on the account can open";
/** The folder of the client's space where documents uploaded for messages are filed. */
export const MESSAGES_FOLDER_NAME = "Messages";

const messageText = z
  .string({ error: "Text must be text" })
  .max(MAX_MESSAGE_LENGTH, `Text must be at most ${MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters`);

/**
 * Which of a client's conversations: the account's own ("account", every person of the account
 * reads it) or the caller's private one with the firm ("private").
 */
const conversationField = z.enum(["account", "private"], { error: "conversation must be account or private" }).default("account");
export type ConversationKind = z.infer<typeof conversationField>;

const sendFields = {
  text: messageText.default(""),
  document_ids: z
    .array(idSchema, { error: "document_ids must be a list of document ids" })
    .max(MAX_ATTACHMENTS, `At most ${MAX_ATTACHMENTS} documents per message`)
    .default([]),
};
const hasContent = (message: { text: string; document_ids: string[] }) => message.text.trim() !== "" || message.document_ids.length > 0;

/** POST /api/messages's body (and the firm's, whose client is in the path). */
export const sendMessageBody = z
  .object({ ...sendFields, conversation: conversationField })
  .refine(hasContent, { message: EMPTY_MESSAGE, path: ["text"] })
  .refine((message) => message.conversation === "account" || message.document_ids.length === 0, {
    message: NO_PRIVATE_ATTACHMENTS,
    path: ["document_ids"],
  });
export type SendMessageBody = z.infer<typeof sendMessageBody>;
/**
 * Which conversation the firm means: a client person's account (`user_id`, the REST paths' form) or
 * the account itself (`account_id`, as the Inbox, the client picker and the account page know it).
 */
const conversationOf = {
  user_id: idSchema.optional(),
  account_id: idSchema.optional(),
  /** One conversation by its id (a person's private one has no other name): it decides over the other two. */
  conversation_id: idSchema.optional(),
};
const namesOne = (who: { user_id?: string; account_id?: string; conversation_id?: string }) =>
  Boolean(who.user_id ?? who.account_id ?? who.conversation_id);
const NAME_ONE = { message: "Send user_id, account_id or conversation_id", path: ["account_id"] };
export const adminSendMessageInput = z
  .object({ ...conversationOf, ...sendFields })
  .refine(hasContent, { message: EMPTY_MESSAGE, path: ["text"] })
  .refine(namesOne, NAME_ONE);

const pageFields = {
  limit: z.coerce.number().int().min(1, "limit must be 1 to 200").max(200, "limit must be 1 to 200").default(50),
  /** The next page of older messages: a nextCursor from the previous answer. */
  cursor: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
};
export const messageListInput = z.object({ ...pageFields, conversation: conversationField });
/** The firm's REST paths name the account in the path; a private conversation also by its id. */
const firmConversationField = { conversation_id: idSchema.optional() };
export const firmMessageListQuery = z.object({ ...pageFields, ...firmConversationField });
export const firmSendMessageBody = z
  .object({ ...sendFields, ...firmConversationField })
  .refine(hasContent, { message: EMPTY_MESSAGE, path: ["text"] });
export const firmConversationBody = z.object(firmConversationField);
export type MessageListInput = z.infer<typeof messageListInput>;
export const adminMessageListInput = z.object({ ...conversationOf, ...pageFields }).refine(namesOne, NAME_ONE);
export const clientIdInput = z.object(conversationOf).refine(namesOne, NAME_ONE);

export const conversationListInput = z.object({
  limit: z.coerce.number().int().min(1, "limit must be 1 to 200").max(200, "limit must be 1 to 200").default(50),
  cursor: z.coerce.number().int().min(0).max(10_000_000).optional(),
});
export type ConversationListInput = z.infer<typeof conversationListInput>;

const attachment = z.object({
  id: z.string(),
  original_filename: z.string(),
  file_size: z.number(),
  content_type: z.string(),
});

export const messageOutput = z.object({
  id: z.string(),
  text: z.string(),
  sender_role: z.enum(["client", "admin"]),
  /** The writer's name; null once an admin who wrote it is deleted. */
  sender_name: z.string().nullable(),
  /**
   * Who wrote it (null for a message from before accounts or a writer since deleted): the people of
   * an account tell their own messages from each other's by it.
   */
  sender_id: z.string().nullable(),
  created_at: z.date(),
  /** The attached documents still live (one in the trash is not listed). */
  documents: z.array(attachment),
});
export type Message = z.infer<typeof messageOutput>;

export const unreadOutput = z.object({ unread: z.number() });
export type Unread = z.infer<typeof unreadOutput>;

/** Which conversation a client marks read (the account's when not said). */
export const markReadInput = z.object({ conversation: conversationField }).optional();

/** A client's conversations with the firm, and who reads each (docs/decisions.md, "Private conversations"). */
export const clientConversationsOutput = z.object({
  /** The account's conversation: every person of the account named here reads it, and the firm. */
  account: z.object({ unread: z.number(), readers: z.array(z.object({ id: z.string(), name: z.string() })) }),
  /** The caller's private conversation: only they and the firm read it; `started` once it has a message. */
  private: z.object({ started: z.boolean(), unread: z.number() }),
});
export type ClientConversations = z.infer<typeof clientConversationsOutput>;

/** A client's conversation in the firm's list. */
export const conversationOutput = z.object({
  /** The conversation itself (its thread): the firm opens a private one by it. */
  conversation_id: z.string(),
  /** Only one person of the account and the firm read it. */
  is_private: z.boolean(),
  /** Who of the account reads a private conversation (null for the account's own, or once they are deleted). */
  private_to_name: z.string().nullable(),
  user_id: z.string(),
  /** The client account whose conversation it is (the firm's New message and the Inbox name it so). */
  account_id: z.string(),
  client_name: z.string(),
  /** The client as the firm names them: username, else email. */
  client_label: z.string(),
  last_message_at: z.date(),
  last_sender_role: z.enum(["client", "admin"]).nullable(),
  /** The start of the last message's text (empty for documents alone). */
  last_text: z.string(),
  /** The client's messages the firm has not read. */
  unread: z.number(),
  /** Who on the firm's side read the conversation last (null: nobody yet). */
  read_by_name: z.string().nullable(),
});
export type Conversation = z.infer<typeof conversationOutput>;

export const messagesFolderOutput = z.object({ id: z.string(), name: z.string() });
export type MessagesFolder = z.infer<typeof messagesFolderOutput>;
