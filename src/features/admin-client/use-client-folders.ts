import { trpc } from "@/lib/trpc.ts";

export function useClientFolders(id: string) {
  return trpc.admin.clients.folders.useQuery({ id }, { retry: false });
}
