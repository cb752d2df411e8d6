import { trpc } from "@/lib/trpc.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";

/**
 * Whether the visitor of /admin already holds an admin session. `auth.session` says whether
 * the user is an admin, but not whether they signed in through /admin, so an admin user is
 * confirmed with one admin call (whose data the dashboard then reuses from the cache).
 * After a refusal (`skip`), the page shows the form instead of bouncing back and forth.
 */
export function useAdminSessionCheck({ skip }: { skip: boolean }) {
  const { user, status } = useCurrentUser();
  const probe = trpc.admin.stats.useQuery(undefined, { enabled: !skip && Boolean(user?.is_admin), retry: false });
  if (status === "unknown") return "checking";
  if (skip || !user?.is_admin) return "signed-out";
  if (probe.isPending) return "checking";
  return probe.isSuccess ? "admin" : "signed-out";
}
