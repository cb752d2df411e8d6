import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { useUpdateFolder } from "./use-update-folder.ts";

/** A folder dropped on another (or on a crumb): moved there, with a toast either way (the server says why it refused). */
export function useMoveFolder() {
  const update = useUpdateFolder();
  return (folder: { id: string; name: string }, parentId: string | null, parentName: string | null) => {
    if (folder.id === parentId) return;
    update.mutate(
      { id: folder.id, parent_folder_id: parentId },
      {
        onSuccess: () =>
          toast.success(`Moved "${folder.name}" to ${parentName === null ? "Documents (top level)" : `"${parentName}"`}`, { id: "move" }),
        onError: (err) => toast.error(errorDetail(err) ?? "Failed to move folder", { id: "move" }),
      },
    );
  };
}
