import { keepPreviousData } from "@tanstack/react-query";
import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import type { ServerPaging } from "@/lib/use-server-paging.ts";

/** Every client's trashed documents, one server page at a time. */
export function useAdminTrash(paging: ServerPaging) {
  const query = trpc.admin.documents.trash.useQuery(paging.input, { placeholderData: keepPreviousData, retry: false });
  useAdminLoadFailure(query);
  return query;
}
