import { useCallback } from "react";
import { ArrowLeft, Lock } from "lucide-react";
import { useSearchParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { ConversationBody, useMarkReadWhenSeen } from "@/components/conversation/conversation-body.tsx";
import { MessageComposer } from "@/components/conversation/message-composer.tsx";
import { cn } from "@/lib/cn.ts";
import { trpc } from "@/lib/trpc.ts";
import { formatRelativeTime } from "@/lib/relative-time.ts";
import type { Conversation } from "@server/domains/messages/schemas.ts";
import { NewMessageDialog } from "./new-message-dialog.tsx";
import { useClientConversation, useConversations, useMarkClientRead, useSendToClient, useUploadForClient } from "./use-admin-messages.ts";

/**
 * The firm's messages: conversations by latest message with unread counts, and the open one
 * (`?client=<id>` in the URL, and `&conversation=<id>` for a person's private conversation). Side by
 * side on a wide screen; on a phone one at a time.
 */
export function MessagesView({ polling }: { polling: boolean }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const clientId = searchParams.get("client");
  const conversationId = searchParams.get("conversation") ?? undefined;
  const conversations = useConversations(polling);
  const items = (conversations.data?.pages ?? []).flatMap((page) => page.items);
  const utils = trpc.useUtils();
  const isOpen = (c: Conversation) => (conversationId ? c.conversation_id === conversationId : !c.is_private && c.user_id === clientId);
  const open = clientId ? items.find(isOpen) : undefined;
  const choose = (id: string | null, privateId?: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set("client", id);
        else next.delete("client");
        if (privateId) next.set("conversation", privateId);
        else next.delete("conversation");
        return next;
      },
      { replace: true },
    );

  // The first message of a new conversation: open it once the list has it (named as the list names it).
  const openNew = async (accountId: string) => {
    await utils.admin.messages.conversations.invalidate();
    const fresh = utils.admin.messages.conversations.getInfiniteData({ limit: 50 });
    const started = fresh?.pages.flatMap((page) => page.items).find((c) => c.account_id === accountId && !c.is_private);
    choose(started?.user_id ?? accountId);
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[20rem_1fr]">
      <Card className={cn("overflow-hidden", clientId && "max-lg:hidden")}>
        <div className="flex items-center justify-between gap-2 border-b px-4 py-2">
          <h2 className="font-semibold">Conversations</h2>
          <NewMessageDialog onSent={(accountId) => void openNew(accountId)} />
        </div>
        {conversations.isPending ? (
          <Spinner label="Loading conversations…" className="w-full justify-center py-8" />
        ) : conversations.isError ? (
          <LoadError
            message="Failed to load conversations"
            onRetry={() => void conversations.refetch()}
            isRetrying={conversations.isFetching}
            className="m-3"
          />
        ) : items.length === 0 ? (
          <p className="p-4 text-sm text-muted-foreground">
            No messages yet. A client&apos;s first message, or your New message, starts a conversation here.
          </p>
        ) : (
          <ul aria-label="Conversations" className="max-h-[70dvh] divide-y overflow-y-auto">
            {items.map((conversation) => (
              <li key={conversation.conversation_id}>
                <button
                  type="button"
                  aria-current={(clientId !== null && isOpen(conversation)) || undefined}
                  onClick={() => choose(conversation.user_id, conversation.is_private ? conversation.conversation_id : undefined)}
                  className={cn("grid w-full gap-0.5 px-4 py-3 text-left hover:bg-muted/60", clientId !== null && isOpen(conversation) && "bg-muted")}
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className={cn("truncate", conversation.unread > 0 && "font-semibold")}>{conversation.client_name}</span>
                    {conversation.unread > 0 && (
                      <span className="rounded-full bg-accent px-1.5 text-xs leading-5 font-semibold text-accent-foreground tabular-nums">
                        {conversation.unread}
                        <span className="sr-only"> unread</span>
                      </span>
                    )}
                  </span>
                  {conversation.is_private && (
                    <span className="flex items-center gap-1 text-xs font-medium">
                      <Lock aria-hidden="true" className="size-3" />
                      {privateLabel(conversation)}
                    </span>
                  )}
                  <span className="truncate text-sm text-muted-foreground">
                    {conversation.last_sender_role === "admin" ? "You: " : ""}
                    {conversation.last_text || "Attachment"}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {formatRelativeTime(conversation.last_message_at)}
                    {/* Who at the firm read the client's messages last: the team sees who has it in hand. */}
                    {conversation.unread === 0 && conversation.read_by_name && <> · Read by {conversation.read_by_name}</>}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {conversations.hasNextPage && (
          <Button variant="ghost" className="w-full" disabled={conversations.isFetchingNextPage} onClick={() => void conversations.fetchNextPage()}>
            Load more
          </Button>
        )}
      </Card>
      {clientId ? (
        <ClientConversation
          key={`${clientId}/${conversationId ?? ""}`}
          clientId={clientId}
          conversationId={conversationId}
          privateTo={open?.is_private ? privateLabel(open) : undefined}
          clientName={open?.client_name ?? "Client"}
          unread={open?.unread ?? 0}
          polling={polling}
          onBack={() => choose(null)}
        />
      ) : (
        <Card className="grid place-items-center p-8 text-sm text-muted-foreground max-lg:hidden">Choose a conversation to read and reply.</Card>
      )}
    </div>
  );
}

/** Whose private conversation it is, as the firm's list and header say. */
function privateLabel(conversation: Conversation): string {
  return `Private: only ${conversation.private_to_name ?? "a person no longer here"} and the firm`;
}

type ClientConversationProps = {
  clientId: string;
  /** A person's private conversation (its id); none: the account's own. */
  conversationId?: string;
  /** What the header says of a private conversation's reader. */
  privateTo?: string;
  clientName: string;
  unread: number;
  polling: boolean;
  onBack?: () => void;
};

/**
 * One client's conversation with the composer; `clientId` is a person's or an account's id (a
 * client's record). A private conversation carries no documents: they would be filed where the
 * whole account reads them (docs/decisions.md, "Private conversations").
 */
export function ClientConversation({ clientId, conversationId, privateTo, clientName, unread, polling, onBack }: ClientConversationProps) {
  const conversation = useClientConversation(clientId, polling, conversationId);
  const send = useSendToClient();
  const markRead = useMarkClientRead();
  const upload = useUploadForClient(clientId);
  const { mutate: markAsRead } = markRead;
  const markThisRead = useCallback(() => markAsRead({ user_id: clientId, conversation_id: conversationId }), [markAsRead, clientId, conversationId]);
  useMarkReadWhenSeen(conversation, unread, markThisRead);

  return (
    <Card className="overflow-hidden">
      <div className="flex items-center gap-2 border-b px-2 py-2 sm:px-4">
        {onBack && (
          <Button variant="ghost" size="icon-sm" className="lg:hidden" aria-label="Back to conversations" onClick={onBack}>
            <ArrowLeft aria-hidden="true" />
          </Button>
        )}
        <div className="grid min-w-0">
          <h2 className="truncate font-semibold">{clientName}</h2>
          {privateTo && (
            <p className="flex items-center gap-1 text-xs text-muted-foreground">
              <Lock aria-hidden="true" className="size-3 shrink-0" />
              {privateTo}
            </p>
          )}
        </div>
      </div>
      <ConversationBody
        conversation={conversation}
        viewer="admin"
        otherName={clientName}
        downloadHref={(id) => `/api/admin/documents/${id}/download`}
      />
      <MessageComposer
        sending={send.isPending}
        onSend={(message) => send.mutateAsync({ ...message, user_id: clientId, conversation_id: conversationId })}
        upload={conversationId ? undefined : upload}
      />
    </Card>
  );
}
