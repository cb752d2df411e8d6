import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useDeleteFolder() {
  const utils = trpc.useUtils();
  return trpc.folders.delete.useMutation({
    onSuccess: async () => {
      toast.success("Folder deleted successfully", { id: "delete-folder" });
      await utils.folders.list.invalidate();
    },
    onError: (err) => {
      // The server explains a refusal, e.g. "Folder is not empty".
      toast.error(errorDetail(err) ?? "Failed to delete folder", { id: "delete-folder" });
    },
  });
}
