import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { uploadDocument } from "@/lib/upload-document.ts";
import { useLiveEvents } from "@/lib/use-live-events.ts";

const PAGE_SIZE = 50;
/** Asked again this often while the live stream is down. */
const POLL_MS = 15_000;
const every = (polling: boolean) => (polling ? POLL_MS : false);

/** The conversations, latest message first, with the firm's unread count for each. */
export function useConversations(polling: boolean) {
  return trpc.admin.conversations.useInfiniteQuery(
    { limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false, refetchInterval: every(polling) },
  );
}

/** One client's conversation (a private one by `conversationId`): the first page is the newest. */
export function useClientConversation(userId: string, polling: boolean, conversationId?: string) {
  return trpc.admin.messages.useInfiniteQuery(
    { user_id: userId, conversation_id: conversationId, limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false, refetchInterval: every(polling) },
  );
}

/** The firm's unread count over all conversations, once `signedIn`. */
export function useFirmMessagesUnread(polling: boolean, signedIn: boolean): number {
  return trpc.admin.messagesUnread.useQuery(undefined, { retry: false, enabled: signedIn, refetchInterval: every(polling) }).data?.unread ?? 0;
}

export function useSendToClient() {
  const utils = trpc.useUtils();
  return trpc.admin.sendMessage.useMutation({
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to send the message. Please try again."),
    onSettled: () =>
      Promise.all([utils.admin.messages.invalidate(), utils.admin.conversations.invalidate(), utils.admin.messagesUnread.invalidate()]),
  });
}

export function useMarkClientRead() {
  const utils = trpc.useUtils();
  return trpc.admin.markMessagesRead.useMutation({
    onSuccess: async (unread) => {
      utils.admin.messagesUnread.setData(undefined, unread);
      await utils.admin.conversations.invalidate();
    },
  });
}

/** Uploads a file into the client's Messages folder (made on first need), to attach it. */
export function useUploadForClient(userId: string) {
  const folder = trpc.admin.messagesFolder.useMutation();
  return async (file: File) => {
    const { id } = await folder.mutateAsync({ user_id: userId });
    return uploadDocument(`/api/admin/users/${userId}/documents`, file, id);
  };
}

/**
 * New messages from any client without a reload, once `signedIn` (before, the stream would only be
 * refused); answers whether to poll (the stream is down).
 */
export function useFirmMessageEvents(signedIn: boolean): { polling: boolean } {
  const utils = trpc.useUtils();
  const live = useLiveEvents(signedIn ? "/api/admin/messages/events" : null, () => {
    void utils.admin.messages.invalidate();
    void utils.admin.conversations.invalidate();
    void utils.admin.messagesUnread.invalidate();
  });
  return { polling: !live };
}
