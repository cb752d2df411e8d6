// The two views of the trail. A client sees every event of their own account, including the
// firm's views and downloads of their documents, but not the network address or browser of the
// firm's staff (nor of anyone else acting on the account); the firm sees everything, narrowed by filters.
import type { Db } from "../db/types.ts";
import { activityPage, type ActivityFilters } from "./queries.ts";
import type { ActivityPage, AdminActivityInput, OwnActivityInput } from "./schemas.ts";

export async function ownActivity(db: Db, clientId: string, input: OwnActivityInput): Promise<ActivityPage> {
  const page = await activityPage(db, { client_id: clientId }, input);
  return {
    next_cursor: page.next_cursor,
    items: page.items.map(({ actor_id, ...item }) => (actor_id === clientId ? item : { ...item, ip: null, user_agent: null })),
  };
}

export async function firmActivity(db: Db, input: AdminActivityInput): Promise<ActivityPage> {
  const page = await activityPage(db, filtersOf(input), input);
  return { next_cursor: page.next_cursor, items: page.items.map(({ actor_id: _actorId, ...item }) => item) };
}

export function filtersOf(input: ActivityFilters): ActivityFilters {
  return { client_id: input.client_id, action: input.action, from: input.from, to: input.to };
}
