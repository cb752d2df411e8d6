import { keepPreviousData } from "@tanstack/react-query";
import type { DocumentSort } from "@/lib/document-sort.ts";
import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** The client's documents whose name contains `q`, across all folders, in the chosen order (the server's: newest first). */
export function useSearchDocuments(q: string, sort: DocumentSort | null) {
  const query = trpc.documents.search.useQuery({ q, ...(sort ?? {}) }, { enabled: q !== "", placeholderData: keepPreviousData, staleTime: 0 });
  useLoggedError(query.error, "search results");
  return query;
}
