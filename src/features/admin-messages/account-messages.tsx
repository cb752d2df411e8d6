import { ClientConversation } from "./messages-view.tsx";
import { useClientConversation, useFirmMessageEvents } from "./use-admin-messages.ts";

/**
 * A client's record's conversation: the same thread the Messages tab shows, where the firm writes
 * first when there is none yet. Live as the Messages tab is (polling while the stream is down).
 */
export function AccountMessages({ accountId, accountName }: { accountId: string; accountName: string }) {
  const { polling } = useFirmMessageEvents(true);
  const conversation = useClientConversation(accountId, polling);
  // The newest message is the client's: what the firm sees here is read (marking it is idempotent).
  const newest = conversation.data?.pages[0]?.items.at(-1);
  const unread = newest?.sender_role === "client" ? 1 : 0;
  return (
    <section aria-labelledby="account-messages-heading" className="grid gap-3">
      <div className="grid gap-1">
        <h2 id="account-messages-heading" className="text-xl font-semibold">
          Messages
        </h2>
        <p className="text-sm text-muted-foreground">
          The conversation with {accountName}&apos;s people: everyone on the account reads it. A private conversation one of them started with the
          firm is in Messages. Write here to start one.
        </p>
      </div>
      <ClientConversation clientId={accountId} clientName={accountName} unread={unread} polling={polling} />
    </section>
  );
}
