import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Moves a document to the trash; the toast's Undo puts it back where it was. */
export function useDeleteDocument() {
  const utils = trpc.useUtils();
  // The restore answers in toasts of their own: Sonner closes the toast whose Undo was clicked,
  // and an update sent to a closing toast is never shown.
  const restore = trpc.documents.restore.useMutation({
    onSuccess: async () => {
      toast.success("Document restored");
      await utils.documents.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to restore document");
    },
  });
  return trpc.documents.delete.useMutation({
    onSuccess: async (_result, { id }) => {
      toast.success("Moved to trash", {
        id: "delete-document",
        description: "Deleted documents stay in the Trash for 30 days.",
        action: { label: "Undo", onClick: () => restore.mutate({ id }) },
      });
      await utils.documents.invalidate();
    },
    onError: () => {
      toast.error("Failed to delete document", { id: "delete-document" });
    },
  });
}
