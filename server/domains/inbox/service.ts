import type { Context } from "../../trpc/context.ts";
import { inboxPage, markRead, unreadCount } from "./queries.ts";
import type { InboxInput, InboxPage, MarkInboxReadInput } from "./schemas.ts";

export async function firmInbox(ctx: Context, input: InboxInput): Promise<InboxPage> {
  const [page, unread] = await Promise.all([inboxPage(ctx.db, input), unreadCount(ctx.db)]);
  return { ...page, unread };
}

/** Ids that are not (or no longer) in the Inbox are passed over: opening an item twice is no error. */
export async function markInboxRead(ctx: Context, input: MarkInboxReadInput): Promise<{ unread: number }> {
  await markRead(ctx.db, "all" in input ? "all" : input.ids, ctx.now());
  return { unread: await unreadCount(ctx.db) };
}

export async function inboxUnread(ctx: Context): Promise<{ unread: number }> {
  return { unread: await unreadCount(ctx.db) };
}
