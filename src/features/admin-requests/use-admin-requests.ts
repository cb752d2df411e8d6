import { keepPreviousData } from "@tanstack/react-query";
import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import type { ServerPaging } from "@/lib/use-server-paging.ts";
import type { RequestStatus } from "@server/domains/requests/schemas.ts";

/** One page of every client's requests (or one account's), by search text (title or client) and status. */
export function useAdminRequests(paging: ServerPaging, status: RequestStatus | undefined, accountId?: string) {
  const query = trpc.admin.requests.list.useQuery(
    { ...paging.input, status, account_id: accountId },
    { placeholderData: keepPreviousData, retry: false },
  );
  useAdminLoadFailure(query);
  return query;
}
