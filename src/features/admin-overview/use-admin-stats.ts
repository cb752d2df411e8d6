import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

export function useAdminStats() {
  const query = trpc.admin.stats.useQuery(undefined, { retry: false });
  useAdminLoadFailure(query);
  return query;
}
