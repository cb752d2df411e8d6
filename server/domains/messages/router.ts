import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { pageOutput } from "../admin/schemas.ts";
import {
  adminMessageListInput,
  adminSendMessageInput,
  clientConversationsOutput,
  clientIdInput,
  conversationListInput,
  conversationOutput,
  messageListInput,
  markReadInput,
  messageOutput,
  messagesFolderOutput,
  sendMessageBody,
  unreadOutput,
} from "./schemas.ts";
import {
  clientConversation,
  clientMessagesFolder,
  conversationsForFirm,
  firmUnread,
  markClientRead,
  markOwnRead,
  ownConversation,
  ownConversations,
  ownMessagesFolder,
  ownUnread,
  sendMessageToClient,
  sendOwnMessage,
} from "./service.ts";

export const messagesRouter = router({
  list: clientProcedure
    .input(messageListInput)
    .output(pageOutput(messageOutput))
    .query(({ ctx, input }) => ownConversation(ctx, input)),
  send: clientProcedure
    .input(sendMessageBody)
    .output(messageOutput)
    .mutation(({ ctx, input }) => sendOwnMessage(ctx, input)),
  unread: clientProcedure.output(unreadOutput).query(({ ctx }) => ownUnread(ctx)),
  markRead: clientProcedure
    .input(markReadInput)
    .output(unreadOutput)
    .mutation(({ ctx, input }) => markOwnRead(ctx, input?.conversation)),
  conversations: clientProcedure.output(clientConversationsOutput).query(({ ctx }) => ownConversations(ctx)),
  folder: clientProcedure.output(messagesFolderOutput).mutation(({ ctx }) => ownMessagesFolder(ctx)),
});

/** The firm sub-router `admin.messages`: `admin.messages.conversations`, `admin.messages.list`, `admin.messages.send`, `admin.messages.markRead`, `admin.messages.unread`, `admin.messages.folder`. */
export const messagesFirmRouter = router({
  conversations: staffProcedure("messages")
    .input(conversationListInput)
    .output(pageOutput(conversationOutput))
    .query(({ ctx, input }) => conversationsForFirm(ctx, input)),
  list: staffProcedure("messages")
    .input(adminMessageListInput)
    .output(pageOutput(messageOutput))
    .query(({ ctx, input }) => clientConversation(ctx, input)),
  send: staffProcedure("messages")
    .input(adminSendMessageInput)
    .output(messageOutput)
    .mutation(({ ctx, input }) => sendMessageToClient(ctx, input)),
  markRead: staffProcedure("messages")
    .input(clientIdInput)
    .output(unreadOutput)
    .mutation(({ ctx, input }) => markClientRead(ctx, input)),
  unread: staffProcedure("messages")
    .output(unreadOutput)
    .query(({ ctx }) => firmUnread(ctx)),
  folder: staffProcedure("messages")
    .input(clientIdInput)
    .output(messagesFolderOutput)
    .mutation(({ ctx, input }) => clientMessagesFolder(ctx, input)),
});
