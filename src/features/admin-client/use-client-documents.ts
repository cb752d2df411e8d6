import { trpc } from "@/lib/trpc.ts";

/** The client's documents in one folder (null: their root), fetched again whenever the folder changes. */
export function useClientDocuments(id: string, folderId: string | null) {
  return trpc.admin.clients.documents.useQuery({ id, folder_id: folderId }, { retry: false, staleTime: 0 });
}
