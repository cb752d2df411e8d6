import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

/** The client the admin's page is about, with their storage; a 403 sends the visitor to /admin. */
export function useClient(id: string) {
  const query = trpc.admin.client.useQuery({ id }, { retry: false });
  useAdminLoadFailure(query);
  return query;
}
