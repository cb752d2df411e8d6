import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { DOCUMENT_DELETED, firmTrashNote } from "@/lib/document-deleted.ts";
import { trpc } from "@/lib/trpc.ts";
import { useRestoreDocument } from "./use-restore-document.ts";

/** Moves a client's document to that client's trash (the admin's Trash list and the client's own show it); the toast's Undo restores it. */
export function useDeleteDocument() {
  const utils = trpc.useUtils();
  const restore = useRestoreDocument();
  return trpc.admin.documents.delete.useMutation({
    onSuccess: async (result, { id }) => {
      toast.success(DOCUMENT_DELETED, {
        description: firmTrashNote(result.legal_hold),
        action: { label: "Undo", onClick: () => restore.mutate({ id }) },
      });
      await Promise.all([utils.admin.documents.list.invalidate(), utils.admin.documents.trash.invalidate(), utils.admin.stats.invalidate()]);
    },
    onError: (err) => {
      toast.error("Failed to delete document", { description: errorDetail(err) });
    },
  });
}
