import { trpc } from "@/lib/trpc.ts";

/** Renames, recolours and/or moves a folder; the folder tree and search results (their paths) refresh. */
export function useUpdateFolder() {
  const utils = trpc.useUtils();
  return trpc.folders.update.useMutation({
    onSuccess: async () => {
      await Promise.all([utils.folders.list.invalidate(), utils.documents.search.invalidate()]);
    },
  });
}
