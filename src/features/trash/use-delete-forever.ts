import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Deletes a trashed document for good (its file too); the storage used goes down. */
export function useDeleteForever() {
  const utils = trpc.useUtils();
  return trpc.documents.deleteForever.useMutation({
    onSuccess: async () => {
      toast.success("Document deleted forever", { id: "trash" });
      await Promise.all([utils.documents.trash.invalidate(), utils.documents.usage.invalidate()]);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to delete document", { id: "trash" });
    },
  });
}
