import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

/** The firm's weekly hours, days off, notice and horizon. */
export function useAvailability() {
  const query = trpc.admin.availability.get.useQuery(undefined, { retry: false });
  useAdminLoadFailure(query);
  return query;
}
