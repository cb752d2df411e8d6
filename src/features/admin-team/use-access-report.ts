import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { httpStatus } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** An account's access report (the activity right); a missing account is said on the page itself. */
export function useAccessReport(id: string) {
  const query = trpc.admin.staff.accessReport.useQuery({ id, limit: 200 }, { retry: false });
  useAdminLoadFailure({ error: httpStatus(query.error) === 404 ? null : query.error, isFetching: query.isFetching });
  return query;
}
