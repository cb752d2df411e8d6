import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { uploadDocument } from "@/lib/upload-document.ts";
import { useLiveEvents } from "@/lib/use-live-events.ts";

const PAGE_SIZE = 50;
/** Asked again this often while the live stream is down (use-message-events.ts). */
const MESSAGES_POLL_MS = 15_000;

/** The client's conversation: the first page is the newest; "Show earlier messages" fetches older pages. */
export function useConversation(polling: boolean) {
  return trpc.messages.list.useInfiniteQuery(
    { limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.nextCursor ?? undefined, retry: false, refetchInterval: polling ? MESSAGES_POLL_MS : false },
  );
}

export function useMessagesUnread(polling: boolean): number {
  return trpc.messages.unread.useQuery(undefined, { retry: false, refetchInterval: polling ? MESSAGES_POLL_MS : false }).data?.unread ?? 0;
}

export function useSendMessage() {
  const utils = trpc.useUtils();
  return trpc.messages.send.useMutation({
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to send the message. Please try again."),
    onSettled: () => Promise.all([utils.messages.list.invalidate(), utils.documents.invalidate(), utils.folders.invalidate()]),
  });
}

export function useMarkMessagesRead() {
  const utils = trpc.useUtils();
  return trpc.messages.markRead.useMutation({
    onSuccess: (unread) => utils.messages.unread.setData(undefined, unread),
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
  });
  return { polling: !live };
}
