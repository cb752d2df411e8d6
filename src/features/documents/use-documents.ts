import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** The documents of one folder, or of the root when `folderId` is null. */
export function useDocuments(folderId: string | null) {
  const root = trpc.documents.root.useQuery(undefined, { enabled: folderId === null });
  const inFolder = trpc.documents.inFolder.useQuery({ folder_id: folderId ?? "" }, { enabled: folderId !== null });
  const query = folderId === null ? root : inFolder;
  useLoggedError(query.error, "documents");
  return query;
}
