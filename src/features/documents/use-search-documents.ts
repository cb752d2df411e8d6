import { keepPreviousData } from "@tanstack/react-query";
import type { DocumentSort } from "@/lib/document-sort.ts";
import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";
import type { SearchFilters } from "./document-search.tsx";

/**
 * The client's documents whose name or text inside matches `q`, within the filters, across all
 * folders, in the chosen order (the server's: newest first). Runs with search text or a filter.
 */
export function useSearchDocuments(q: string, sort: DocumentSort | null, filters: SearchFilters = { source: null, year: null }) {
  const input = { q, ...(sort ?? {}), ...(filters.source ? { source: filters.source } : {}), ...(filters.year ? { year: filters.year } : {}) };
  const enabled = q !== "" || filters.source !== null || filters.year !== null;
  const query = trpc.documents.search.useQuery(input, { enabled, placeholderData: keepPreviousData, staleTime: 0 });
  useLoggedError(query.error, "search results");
  return query;
}
