import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Puts a trashed document back in its folder (the root if that folder is gone). */
export function useRestoreDocument() {
  const utils = trpc.useUtils();
  return trpc.documents.restore.useMutation({
    onSuccess: async (document) => {
      toast.success(`Restored "${document.original_filename}"`, { id: "trash" });
      await utils.documents.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to restore document", { id: "trash" });
    },
  });
}
