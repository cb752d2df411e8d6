import { trpc } from "@/lib/trpc.ts";

/** Renames and/or moves a document (folder_id null: to the root); every document list refreshes. */
export function useUpdateDocument() {
  const utils = trpc.useUtils();
  return trpc.documents.update.useMutation({
    onSuccess: async () => {
      await utils.documents.invalidate();
    },
  });
}
