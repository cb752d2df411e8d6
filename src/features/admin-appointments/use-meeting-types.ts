import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

export function useMeetingTypes() {
  const query = trpc.admin.availability.meetingTypes.useQuery(undefined, { retry: false });
  useAdminLoadFailure(query);
  return query;
}
