import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { httpStatus } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** The client the admin's page is about, with their storage; a 403 sends the visitor to /admin. */
export function useClient(id: string) {
  const query = trpc.admin.clients.get.useQuery({ id }, { retry: false });
  // A missing client is said on the page itself ("Client not found"), not as a failed load.
  useAdminLoadFailure({ error: httpStatus(query.error) === 404 ? null : query.error, isFetching: query.isFetching });
  return query;
}
