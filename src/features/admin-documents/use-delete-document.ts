import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useDeleteDocument() {
  const utils = trpc.useUtils();
  return trpc.admin.deleteDocument.useMutation({
    onSuccess: async () => {
      toast.success("Document deleted successfully");
      await Promise.all([utils.admin.documents.invalidate(), utils.admin.stats.invalidate()]);
    },
    onError: () => {
      toast.error("Failed to delete document");
    },
  });
}
