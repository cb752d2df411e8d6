import { useEffect } from "react";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { usePageVisible } from "@/lib/use-page-visible.ts";
import { type ConversationMessage, MessageList } from "./message-list.tsx";

/** A conversation as React Query's infinite query holds it: pages of messages, newest page first. */
type ConversationQuery = {
  data?: { pages: Array<{ items: ConversationMessage[] }> };
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  isFetching: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  refetch: () => Promise<unknown>;
  fetchNextPage: () => Promise<unknown>;
};

/** Oldest first, as the conversation is read. */
function conversationMessages(conversation: ConversationQuery): ConversationMessage[] {
  return (conversation.data?.pages ?? []).toReversed().flatMap((page) => page.items);
}

/**
 * Marks the other side's messages read when they are seen: the tab visible and the conversation on
 * screen, again as new ones arrive. A tab left in the background reads nothing (so the other side's
 * email still goes out).
 */
export function useMarkReadWhenSeen(conversation: ConversationQuery, unread: number, markRead: () => void): void {
  const visible = usePageVisible();
  const shown = conversation.isSuccess;
  const newest = conversationMessages(conversation).at(-1)?.id;
  useEffect(() => {
    if (visible && shown && unread > 0) markRead();
  }, [visible, shown, unread, newest, markRead]);
}

type ConversationBodyProps = {
  conversation: ConversationQuery;
  viewer: "client" | "admin";
  viewerId?: string;
  otherName: string;
  downloadHref: (documentId: string) => string;
};

/** The messages, or their loading and failure states. */
export function ConversationBody({ conversation, viewer, viewerId, otherName, downloadHref }: ConversationBodyProps) {
  if (conversation.isPending) return <Spinner label="Loading messages…" className="w-full justify-center py-10" />;
  if (conversation.isError) {
    return (
      <LoadError message="Failed to load messages" onRetry={() => void conversation.refetch()} isRetrying={conversation.isFetching} className="m-4" />
    );
  }
  return (
    <MessageList
      messages={conversationMessages(conversation)}
      viewer={viewer}
      viewerId={viewerId}
      otherName={otherName}
      downloadHref={downloadHref}
      hasOlder={conversation.hasNextPage}
      loadingOlder={conversation.isFetchingNextPage}
      onLoadOlder={() => void conversation.fetchNextPage()}
    />
  );
}
