import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** The documents of one folder, or of the root when `folderId` is null. */
export function useDocuments(folderId: string | null) {
  // The spec reloads documents whenever the current folder changes. A new folder is a new query
  // key (or root's query re-enabled), which React Query fetches only when stale, so never fresh.
  const root = trpc.documents.root.useQuery(undefined, { enabled: folderId === null, staleTime: 0 });
  const inFolder = trpc.documents.inFolder.useQuery({ folder_id: folderId ?? "" }, { enabled: folderId !== null, staleTime: 0 });
  const query = folderId === null ? root : inFolder;
  useLoggedError(query.error, "documents");
  return query;
}
