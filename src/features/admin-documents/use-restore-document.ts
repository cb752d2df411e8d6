import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Puts a client's trashed document back in its folder (the root if that folder is gone). */
export function useRestoreDocument() {
  const utils = trpc.useUtils();
  return trpc.admin.documents.restore.useMutation({
    onSuccess: async (document) => {
      toast.success(`Restored "${document.original_filename}"`);
      await Promise.all([utils.admin.documents.list.invalidate(), utils.admin.documents.trash.invalidate(), utils.admin.stats.invalidate()]);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to restore document");
    },
  });
}
