// The two views of the trail. A client sees every event of their own account, including the
// firm's views and downloads of their documents, but not the network address or browser of the
// firm's staff (nor of anyone else acting on the account); the firm sees everything, narrowed by filters.
// The client never sees a staff member's login name: the trail records it for the firm, and the
// client's view says "Your firm", or the staff member's display name if the firm chooses
// (docs/security.md, "Round 3 (issue 28)").
import type { Db } from "../../db/types.ts";
import type { AuthedContext, Context, FirmContext } from "../../trpc/context.ts";
import type { FirmScope } from "../../trpc/firm-scope.ts";
import { FIRM_PRIVATE_ACTIONS, recordSettingChange } from "./record.ts";
import {
  activityPage,
  type ActivityFilters,
  clientDisplayNames,
  firmDisplayNames,
  setStaffNamesForClients,
  staffDisplayNames,
  staffNamesForClients,
} from "./queries.ts";
import type { ActivityPage, ActivitySettings, AdminActivityInput, OwnActivityInput } from "./schemas.ts";

/** A client's own trail is bounded by its account (`client_id`), not by a firm person's reach. */
const EVERY_ACCOUNT: FirmScope = { all: true };

/** How a client's own trail names the firm's staff unless the firm chooses their names. */
const FIRM_LABEL = "Your firm";

/** The current account's trail; the network address and browser only of the person's own events. */
export async function ownActivity(db: Db, who: { accountId: string; personId: string }, input: OwnActivityInput): Promise<ActivityPage> {
  const [page, withNames] = await Promise.all([
    // The firm's private notes leave no trace in the client's view (docs/decisions.md, "Private notes on a client's record").
    activityPage(db, { scope: EVERY_ACCOUNT, client_id: who.accountId, without: FIRM_PRIVATE_ACTIONS, reader_id: who.personId }, input),
    staffNamesForClients(db),
  ]);
  const staffIds = [...new Set(page.items.flatMap((item) => (item.actor_role === "admin" && item.actor_id ? [item.actor_id] : [])))];
  const names = withNames ? await staffDisplayNames(db, staffIds) : new Map<string, string>();
  // An account shared by several people names each of them by their name, never their login name.
  const otherClientIds = [
    ...new Set(
      page.items.flatMap((item) => (item.actor_role === "client" && item.actor_id && item.actor_id !== who.personId ? [item.actor_id] : [])),
    ),
  ];
  const people = await clientDisplayNames(db, otherClientIds);
  return {
    next_cursor: page.next_cursor,
    items: page.items.map(({ actor_id, ...item }) => {
      const named =
        item.actor_role === "admin"
          ? { ...item, actor_label: (actor_id && names.get(actor_id)) || FIRM_LABEL }
          : item.actor_role === "client" && actor_id !== who.personId
            ? { ...item, actor_label: (actor_id && people.get(actor_id)) || "Someone no longer with the account", by_you: false }
            : item;
      return actor_id === who.personId ? named : { ...named, ip: null, user_agent: null };
    }),
  };
}

export async function activitySettings(ctx: Pick<Context, "db">): Promise<ActivitySettings> {
  return { staff_names_for_clients: await staffNamesForClients(ctx.db) };
}

export async function updateActivitySettings(ctx: AuthedContext, input: ActivitySettings): Promise<ActivitySettings> {
  await ctx.db.transaction().execute(async (tx) => {
    await setStaffNamesForClients(tx, input.staff_names_for_clients, ctx.now());
    await recordSettingChange(tx, ctx, "staff_names_for_clients", input.staff_names_for_clients);
  });
  ctx.logger.info({ staffNamesForClients: input.staff_names_for_clients }, "firm activity settings changed");
  return activitySettings(ctx);
}

/**
 * The firm's trail, its people named by their names now (firmDisplayNames): the actor, and the
 * client of a person's own event (a sign-in), which the row labels by login name. A failed sign-in
 * keeps the name as it was typed; the CSV exports keep every label as recorded.
 */
export async function firmActivity(ctx: FirmContext, input: AdminActivityInput): Promise<ActivityPage> {
  const page = await activityPage(ctx.db, filtersOf(ctx, input), input);
  const people = await firmDisplayNames(
    ctx.db,
    page.items.flatMap((item) => [item.actor_id, item.client_id]),
  );
  return {
    next_cursor: page.next_cursor,
    items: page.items.map(({ actor_id, ...item }) => {
      const actor = actor_id && item.action !== "auth.sign_in_failed" ? people.get(actor_id) : undefined;
      const client = item.client_id ? people.get(item.client_id) : undefined;
      const clientIsPerson = client !== undefined && (item.client_label === client.username || item.client_label === client.email);
      return { ...item, actor_label: actor?.display ?? item.actor_label, client_label: clientIsPerson ? client.display : item.client_label };
    }),
  };
}

export function filtersOf(ctx: FirmContext, input: Omit<ActivityFilters, "scope">): ActivityFilters {
  return { scope: ctx.firmScope, client_id: input.client_id, actor_id: input.actor_id, action: input.action, from: input.from, to: input.to };
}
