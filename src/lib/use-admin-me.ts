import type { StaffRight } from "@server/domains/staff/schemas.ts";
import { trpc } from "./trpc.ts";

/**
 * The signed-in person of the admin portal, with their role and rights: the portal offers only the
 * tabs and buttons they may use (the server checks every call regardless).
 */
export function useAdminMe() {
  const me = trpc.admin.me.useQuery(undefined, { retry: false, staleTime: 60_000 });
  const rights = new Set<StaffRight>(me.data?.rights ?? []);
  return { me: me.data, may: (right: StaffRight) => rights.has(right) };
}
