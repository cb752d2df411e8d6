import type { InboxItemKind } from "../../db/types.ts";
import type { FirmContext } from "../../trpc/context.ts";
import { mayUse, type StaffAccess, type StaffRight } from "../../trpc/staff-rights.ts";
import { inboxPage, markRead, unreadCount } from "./queries.ts";
import type { InboxInput, InboxPage, MarkInboxReadInput } from "./schemas.ts";

/**
 * The right each kind of item needs: the Inbox is open to all of the firm's people, and shows each
 * one the items of the work they may do (docs/decisions.md, "Staff roles and rights (issue 33)").
 */
const KIND_RIGHTS: Record<InboxItemKind, StaffRight> = {
  upload: "documents",
  request_submitted: "requests",
  organizer_submitted: "requests",
  consultation: "manage_clients",
  appointment_request: "appointments",
  appointment_booked: "appointments",
  appointment_rescheduled: "appointments",
  appointment_cancelled: "appointments",
  message: "messages",
  signature_viewed: "requests",
  signature_signed: "requests",
  signature_declined: "requests",
  signature_completed: "requests",
};

type InboxContext = FirmContext;

function visibleKinds(staff: StaffAccess): InboxItemKind[] {
  return (Object.keys(KIND_RIGHTS) as InboxItemKind[]).filter((kind) => mayUse(staff, KIND_RIGHTS[kind]));
}

export async function firmInbox(ctx: InboxContext, input: InboxInput): Promise<InboxPage> {
  const kinds = visibleKinds(ctx.staff);
  if (kinds.length === 0) return { items: [], next_cursor: null, unread: 0 };
  const [page, unread] = await Promise.all([inboxPage(ctx.db, ctx.firmScope, input, kinds), unreadCount(ctx.db, ctx.firmScope, kinds)]);
  return { ...page, unread };
}

/** Ids that are not (or no longer) in the Inbox are passed over: opening an item twice is no error. */
export async function markInboxRead(ctx: InboxContext, input: MarkInboxReadInput): Promise<{ unread: number }> {
  const kinds = visibleKinds(ctx.staff);
  if (kinds.length === 0) return { unread: 0 };
  await markRead(ctx.db, ctx.firmScope, { ids: "all" in input ? "all" : input.ids, at: ctx.now(), by: ctx.user.id }, kinds);
  return { unread: await unreadCount(ctx.db, ctx.firmScope, kinds) };
}

export async function inboxUnread(ctx: InboxContext): Promise<{ unread: number }> {
  const kinds = visibleKinds(ctx.staff);
  return { unread: kinds.length === 0 ? 0 : await unreadCount(ctx.db, ctx.firmScope, kinds) };
}
