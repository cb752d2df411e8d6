import { keepPreviousData } from "@tanstack/react-query";
import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import type { ServerPaging } from "@/lib/use-server-paging.ts";
import type { RequestStatus } from "@server/domains/requests/schemas.ts";

/** One page of every client's requests, by search text (title or client) and status. */
export function useAdminRequests(paging: ServerPaging, status: RequestStatus | undefined) {
  const query = trpc.admin.requests.useQuery({ ...paging.input, status }, { placeholderData: keepPreviousData, retry: false });
  useAdminLoadFailure(query);
  return query;
}
