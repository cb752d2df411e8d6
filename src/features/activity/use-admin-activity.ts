import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import type { AdminActivityInput } from "@server/domains/activity/schemas.ts";

export type AdminActivityFilters = Pick<AdminActivityInput, "client_id" | "action" | "from" | "to">;

const PAGE_SIZE = 50;

/** The firm's trail under the chosen filters; "Load more" appends the next older keyset page. */
export function useAdminActivity(filters: AdminActivityFilters) {
  const query = trpc.admin.activity.list.useInfiniteQuery(
    { ...filters, limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.next_cursor ?? undefined, retry: false },
  );
  useAdminLoadFailure(query);
  return query;
}

/** Clients to filter by (admins have no trail of their own as clients). */
export function useActivityClients() {
  const query = trpc.admin.users.useQuery({ limit: 200 }, { retry: false });
  return query.data?.items.filter((user) => !user.is_admin) ?? [];
}
