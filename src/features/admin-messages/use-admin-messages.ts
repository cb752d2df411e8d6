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
  return trpc.admin.messages.conversations.useInfiniteQuery(
    { limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false, refetchInterval: every(polling) },
  );
}

/** One client's conversation (a private one by `conversationId`): the first page is the newest. */
export function useClientConversation(userId: string, polling: boolean, conversationId?: string) {
  return trpc.admin.messages.list.useInfiniteQuery(
    { user_id: userId, conversation_id: conversationId, limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false, refetchInterval: every(polling) },
  );
}

/** The firm's unread count over all conversations, once `signedIn`. */
export function useFirmMessagesUnread(polling: boolean, signedIn: boolean): number {
  return trpc.admin.messages.unread.useQuery(undefined, { retry: false, enabled: signedIn, refetchInterval: every(polling) }).data?.unread ?? 0;
}

export function useSendToClient() {
  const utils = trpc.useUtils();
  return trpc.admin.messages.send.useMutation({
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to send the message. Please try again."),
    onSettled: () =>
      Promise.all([
        utils.admin.messages.list.invalidate(),
        utils.admin.messages.conversations.invalidate(),
        utils.admin.messages.unread.invalidate(),
      ]),
  });
}

export function useMarkClientRead() {
  const utils = trpc.useUtils();
  return trpc.admin.messages.markRead.useMutation({
    onSuccess: async (unread) => {
      utils.admin.messages.unread.setData(undefined, unread);
      await utils.admin.messages.conversations.invalidate();
    },
  });
}

/** Uploads a file into the client's Messages folder (made on first need), to attach it. */
export function useUploadForClient(userId: string) {
  const folder = trpc.admin.messages.folder.useMutation();
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
    void utils.admin.messages.list.invalidate();
    void utils.admin.messages.conversations.invalidate();
    void utils.admin.messages.unread.invalidate();
  });
  return { polling: !live };
}
