import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

/** Moves a client's document to that client's trash (the admin's Trash list and the client's own show it). */
export function useDeleteDocument() {
  const utils = trpc.useUtils();
  return trpc.admin.deleteDocument.useMutation({
    onSuccess: async () => {
      toast.success("Moved to trash");
      await Promise.all([utils.admin.documents.invalidate(), utils.admin.trash.invalidate(), utils.admin.stats.invalidate()]);
    },
    onError: () => {
      toast.error("Failed to delete document");
    },
  });
}
