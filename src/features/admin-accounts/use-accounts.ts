import { keepPreviousData } from "@tanstack/react-query";
import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { httpStatus } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import type { ServerPaging } from "@/lib/use-server-paging.ts";

/** The Clients tab's page of accounts with their people. */
export function useAccounts(paging: ServerPaging) {
  const query = trpc.admin.accounts.list.useQuery(paging.input, { placeholderData: keepPreviousData, retry: false });
  useAdminLoadFailure(query);
  return query;
}

/** One account with its people; a missing one is said on the page itself. */
export function useAccount(id: string) {
  const query = trpc.admin.accounts.get.useQuery({ id }, { retry: false });
  useAdminLoadFailure({ error: httpStatus(query.error) === 404 ? null : query.error, isFetching: query.isFetching });
  return query;
}

/** Whether the signed-in person reaches a client (an account, or a client person's id) that did not open, and who may assign it (docs/security.md, "Assigned accounts"). */
export function useAccountReach(who: { account_id: string } | { user_id: string }) {
  return trpc.admin.staff.accountReach.useQuery(who, { retry: false, staleTime: 0 });
}
