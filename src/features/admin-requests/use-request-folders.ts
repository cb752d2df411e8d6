import { trpc } from "@/lib/trpc.ts";

/** The chosen client's folders (with their paths), for where the request's uploads go. */
export function useRequestFolders(userId: string | null) {
  return trpc.admin.requests.folders.useQuery({ user_id: userId ?? "" }, { enabled: userId !== null, retry: false });
}
