import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { uploadDocument } from "@/lib/upload-document.ts";
import { useLiveEvents } from "@/lib/use-live-events.ts";

const PAGE_SIZE = 50;
/** Asked again this often while the live stream is down (use-message-events.ts). */
const MESSAGES_POLL_MS = 15_000;

/** The account's conversation (its people's and the firm's) or the person's private one with the firm. */
export type ConversationKind = "account" | "private";

/** One of the client's conversations: the first page is the newest; "Show earlier messages" fetches older pages. */
export function useConversation(polling: boolean, conversation: ConversationKind) {
  return trpc.messages.list.useInfiniteQuery(
    { limit: PAGE_SIZE, conversation },
    { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false, refetchInterval: polling ? MESSAGES_POLL_MS : false },
  );
}

export function useMessagesUnread(polling: boolean): number {
  return trpc.messages.unread.useQuery(undefined, { retry: false, refetchInterval: polling ? MESSAGES_POLL_MS : false }).data?.unread ?? 0;
}

/** The client's conversations with who reads each, and the unread count of each. */
export function useClientConversations(polling: boolean) {
  return trpc.messages.conversations.useQuery(undefined, { retry: false, refetchInterval: polling ? MESSAGES_POLL_MS : false });
}

export function useSendMessage() {
  const utils = trpc.useUtils();
  return trpc.messages.send.useMutation({
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to send the message. Please try again."),
    onSettled: () =>
      Promise.all([
        utils.messages.list.invalidate(),
        utils.messages.conversations.invalidate(),
        utils.documents.invalidate(),
        utils.folders.invalidate(),
      ]),
  });
}

export function useMarkMessagesRead() {
  const utils = trpc.useUtils();
  return trpc.messages.markRead.useMutation({
    onSuccess: async (unread) => {
      utils.messages.unread.setData(undefined, unread);
      await utils.messages.conversations.invalidate();
    },
  });
}

/** Uploads a file into the client's Messages folder (made on first need), to attach it. */
export function useUploadForMessage() {
  const folder = trpc.messages.folder.useMutation();
  const utils = trpc.useUtils();
  return async (file: File) => {
    const { id } = await folder.mutateAsync();
    const uploaded = await uploadDocument("/api/documents/upload", file, id);
    void utils.folders.invalidate();
    void utils.documents.invalidate();
    return uploaded;
  };
}

/** The client's documents whose name contains `q`, to attach one. */
export function useDocumentsToAttach(q: string) {
  return trpc.documents.search.useQuery({ q, limit: 20 }, { retry: false });
}

/**
 * New messages without a reload: the server's event stream says when the conversation changed,
 * and the conversation and the unread count are asked again. Answers whether to poll (the stream is down).
 */
export function useMessageEvents(): { polling: boolean } {
  const utils = trpc.useUtils();
  const live = useLiveEvents("/api/messages/events", () => {
    void utils.messages.list.invalidate();
    void utils.messages.unread.invalidate();
    void utils.messages.conversations.invalidate();
  });
  return { polling: !live };
}
