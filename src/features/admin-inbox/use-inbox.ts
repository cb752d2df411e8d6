import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

const PAGE_SIZE = 30;
/** The tab's count is asked again every minute, so news shows without a reload. */
const UNREAD_REFRESH_MS = 60_000;

/** The firm's Inbox, newest first; "Load more" appends the next keyset page. */
export function useInbox(show: "all" | "unread") {
  const query = trpc.admin.inbox.list.useInfiniteQuery(
    { limit: PAGE_SIZE, show },
    { getNextPageParam: (page) => page.next_cursor ?? undefined, retry: false, refetchInterval: UNREAD_REFRESH_MS },
  );
  useAdminLoadFailure(query);
  return query;
}

export function useInboxUnread(): number {
  return trpc.admin.inbox.unread.useQuery(undefined, { retry: false, refetchInterval: UNREAD_REFRESH_MS }).data?.unread ?? 0;
}

/** Marks items (or all) read; the list and the tab's count follow. */
export function useMarkInboxRead() {
  const utils = trpc.useUtils();
  return trpc.admin.inbox.read.useMutation({
    onSuccess: async ({ unread }) => {
      utils.admin.inbox.unread.setData(undefined, { unread });
      await utils.admin.inbox.list.invalidate();
    },
  });
}

/** A reply written in the Inbox: a message to the account's conversation, which marks its item read. */
export function useReplyFromInbox() {
  const utils = trpc.useUtils();
  return trpc.admin.messages.send.useMutation({
    onSuccess: () =>
      Promise.all([
        utils.admin.inbox.list.invalidate(),
        utils.admin.inbox.unread.invalidate(),
        utils.admin.messages.conversations.invalidate(),
        utils.admin.messages.list.invalidate(),
        utils.admin.messages.unread.invalidate(),
      ]),
  });
}

/** A visitor's consultation request turned into an invited client (their account and the invitation's email). */
export function useInviteFromConsultation() {
  const utils = trpc.useUtils();
  return trpc.admin.consultations.invite.useMutation({
    onSuccess: () =>
      Promise.all([utils.admin.invitations.list.invalidate(), utils.admin.consultations.list.invalidate(), utils.admin.accounts.list.invalidate()]),
  });
}
