import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

/** Only what is stored (empty until initialized), unlike the public `site.content`. */
export function useAdminSiteContent() {
  const query = trpc.admin.siteContent.get.useQuery(undefined, { retry: false });
  useAdminLoadFailure(query);
  return query;
}
