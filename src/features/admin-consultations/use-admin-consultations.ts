import { keepPreviousData } from "@tanstack/react-query";
import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import type { ServerPaging } from "@/lib/use-server-paging.ts";

export function useAdminConsultations(paging: ServerPaging) {
  const query = trpc.admin.consultations.list.useQuery(paging.input, { placeholderData: keepPreviousData, retry: false });
  useAdminLoadFailure(query);
  return query;
}
