import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { useUpdateDocument } from "./use-update-document.ts";

/** A document dropped on a folder: moved there, with a toast either way (the server says why it refused). */
export function useMoveDocument() {
  const update = useUpdateDocument();
  return (document: { id: string; name: string }, folderId: string | null, folderName: string | null) =>
    update.mutate(
      { id: document.id, folder_id: folderId },
      {
        onSuccess: () =>
          toast.success(`Moved "${document.name}" to ${folderName === null ? "Documents (top level)" : `"${folderName}"`}`, { id: "move" }),
        onError: (err) => toast.error(errorDetail(err) ?? "Failed to move document", { id: "move" }),
      },
    );
}
