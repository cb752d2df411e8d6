import { Card } from "@/components/ui/card.tsx";
import { ConversationBody, useMarkReadWhenSeen } from "@/components/conversation/conversation-body.tsx";
import { MessageComposer } from "@/components/conversation/message-composer.tsx";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import { AttachDocumentDialog } from "./attach-document-dialog.tsx";
import { useConversation, useMarkMessagesRead, useSendMessage, useUploadForMessage } from "./use-messages.ts";

/** The client's conversation with the firm; what the firm wrote is marked read while this tab is open. */
export function MessagesTab({ polling, unread }: { polling: boolean; unread: number }) {
  const conversation = useConversation(polling);
  const { user } = useCurrentUser();
  const send = useSendMessage();
  const markRead = useMarkMessagesRead();
  const upload = useUploadForMessage();
  const { mutate: markAsRead } = markRead;
  useMarkReadWhenSeen(conversation, unread, markAsRead);

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="text-xl font-semibold">Messages</h2>
        <p className="text-sm text-muted-foreground">A private conversation with your firm. Attachments are kept in your Messages folder.</p>
      </div>
      <Card className="overflow-hidden">
        <ConversationBody
          conversation={conversation}
          viewer="client"
          viewerId={user?.id}
          otherName="Your firm"
          downloadHref={(id) => `/api/documents/${id}/download`}
        />
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
