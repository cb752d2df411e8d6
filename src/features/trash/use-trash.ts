import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** The client's trashed documents, the most recently deleted first. */
export function useTrash() {
  const query = trpc.documents.trash.useQuery(undefined, { staleTime: 0 });
  useLoggedError(query.error, "trash");
  return query;
}
