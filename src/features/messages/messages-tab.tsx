import { useCallback, useState } from "react";
import { Lock, Users } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { ConversationBody, useMarkReadWhenSeen } from "@/components/conversation/conversation-body.tsx";
import { MessageComposer } from "@/components/conversation/message-composer.tsx";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import { AttachDocumentDialog } from "./attach-document-dialog.tsx";
import {
  type ConversationKind,
  useClientConversations,
  useConversation,
  useMarkMessagesRead,
  useSendMessage,
  useUploadForMessage,
} from "./use-messages.ts";

/** "A, B and C" */
function listNames(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * The client's conversations with the firm: the account's, which every person of the account reads
 * (named here), and the person's private one, which only they and the firm read (docs/decisions.md,
 * "Private conversations"). What the firm wrote is marked read while the conversation is open.
 */
export function MessagesTab({ polling }: { polling: boolean }) {
  const [kind, setKind] = useState<ConversationKind>("account");
  const conversations = useClientConversations(polling);
  const conversation = useConversation(polling, kind);
  const { user } = useCurrentUser();
  const send = useSendMessage();
  const markRead = useMarkMessagesRead();
  const upload = useUploadForMessage();
  const { mutate: markAsRead } = markRead;
  const markThisRead = useCallback(() => markAsRead({ conversation: kind }), [markAsRead, kind]);
  const unreadOf = (which: ConversationKind) => conversations.data?.[which].unread ?? 0;
  useMarkReadWhenSeen(conversation, unreadOf(kind), markThisRead);

  const others = (conversations.data?.account.readers ?? []).filter((person) => person.id !== user?.id).map((person) => person.name);
  const readers =
    others.length === 0
      ? "Read by you and your firm, and by anyone added to your account later."
      : `Read by you, ${listNames(others)} (everyone on your account) and your firm.`;
  const choices: { value: ConversationKind; label: string }[] = [
    { value: "account", label: "Everyone on the account" },
    { value: "private", label: "Only me and the firm" },
  ];

  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <h2 className="text-xl font-semibold">Messages</h2>
        <div role="group" aria-label="Conversation" className="inline-flex w-fit flex-wrap rounded-md border bg-card p-0.5">
          {choices.map(({ value, label }) => (
            <Button
              key={value}
              variant={kind === value ? "secondary" : "ghost"}
              size="sm"
              aria-pressed={kind === value}
              onClick={() => setKind(value)}
            >
              {value === "account" ? <Users aria-hidden="true" /> : <Lock aria-hidden="true" />}
              {label}
              {unreadOf(value) > 0 && (
                <span className="rounded-full bg-accent px-1.5 text-xs leading-5 font-semibold text-accent-foreground tabular-nums">
                  {unreadOf(value)}
                  <span className="sr-only"> unread</span>
                </span>
              )}
            </Button>
          ))}
        </div>
        <p className="text-sm text-muted-foreground" data-testid="conversation-readers">
          {kind === "account"
            ? `${readers} Attachments are kept in your Messages folder, which they can open too.`
            : "Only you and your firm read this conversation: the others on your account do not see it. Documents cannot be attached here, since your folders are open to everyone on your account."}
        </p>
      </div>
      <Card className="overflow-hidden">
        <ConversationBody
          key={`messages-${kind}`}
          conversation={conversation}
          viewer="client"
          viewerId={user?.id}
          otherName="Your firm"
          downloadHref={(id) => `/api/documents/${id}/download`}
        />
        <MessageComposer
          // A text begun in one conversation is not carried into the other.
          key={`composer-${kind}`}
          sending={send.isPending}
          onSend={(message) => send.mutateAsync({ ...message, conversation: kind })}
          upload={kind === "account" ? upload : undefined}
          attachExisting={kind === "account" ? (attach) => <AttachDocumentDialog onAttach={attach} /> : undefined}
        />
      </Card>
    </div>
  );
}
