import { useEffect } from "react";
import { Card } from "@/components/ui/card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { MessageComposer } from "@/components/conversation/message-composer.tsx";
import { MessageList } from "@/components/conversation/message-list.tsx";
import { AttachDocumentDialog } from "./attach-document-dialog.tsx";
import { useConversation, useMarkMessagesRead, useSendMessage, useUploadForMessage } from "./use-messages.ts";
import { usePageVisible } from "@/lib/use-page-visible.ts";

/** The client's conversation with the firm; what the firm wrote is marked read while this tab is open. */
export function MessagesTab({ polling, unread }: { polling: boolean; unread: number }) {
  const conversation = useConversation(polling);
  const send = useSendMessage();
  const markRead = useMarkMessagesRead();
  const upload = useUploadForMessage();
  const messages = (conversation.data?.pages ?? []).toReversed().flatMap((page) => page.items);
  const newest = messages.at(-1)?.id;

  // Read means seen: not while the tab is in the background, nor before the messages are on screen.
  const visible = usePageVisible();
  const shown = conversation.isSuccess;
  const { mutate: markAsRead } = markRead;
  useEffect(() => {
    if (visible && shown && unread > 0) markAsRead();
  }, [visible, shown, unread, newest, markAsRead]);

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="text-xl font-semibold">Messages</h2>
        <p className="text-sm text-muted-foreground">A private conversation with your firm. Attachments are kept in your Messages folder.</p>
      </div>
      <Card className="overflow-hidden">
        {conversation.isPending ? (
          <Spinner label="Loading messages…" className="w-full justify-center py-10" />
        ) : conversation.isError ? (
          <LoadError
            message="Failed to load messages"
            onRetry={() => void conversation.refetch()}
            isRetrying={conversation.isFetching}
            className="m-4"
          />
        ) : (
          <MessageList
            messages={messages}
            viewer="client"
            otherName="Your firm"
            downloadHref={(id) => `/api/documents/${id}/download`}
            hasOlder={conversation.hasNextPage}
            loadingOlder={conversation.isFetchingNextPage}
            onLoadOlder={() => void conversation.fetchNextPage()}
          />
        )}
        <MessageComposer
          sending={send.isPending}
          onSend={(message) => send.mutateAsync(message)}
          upload={upload}
          attachExisting={(attach) => <AttachDocumentDialog onAttach={attach} />}
        />
      </Card>
    </div>
  );
}
