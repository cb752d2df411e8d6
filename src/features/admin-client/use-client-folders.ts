import { trpc } from "@/lib/trpc.ts";

export function useClientFolders(id: string) {
  return trpc.admin.clientFolders.useQuery({ id }, { retry: false });
}
