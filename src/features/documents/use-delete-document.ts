import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useDeleteDocument() {
  const utils = trpc.useUtils();
  return trpc.documents.delete.useMutation({
    onSuccess: async () => {
      toast.success("Document deleted successfully", { id: "delete-document" });
      await utils.documents.invalidate();
    },
    onError: () => {
      toast.error("Failed to delete document", { id: "delete-document" });
    },
  });
}
