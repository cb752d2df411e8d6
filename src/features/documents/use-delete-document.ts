import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { DOCUMENT_DELETED } from "@/lib/document-deleted.ts";
import { trpc } from "@/lib/trpc.ts";
import { TRASH_RETENTION_DAYS } from "@server/domains/documents/schemas.ts";

/**
 * Moves a document to the trash: the specification's "Document deleted successfully", with where it
 * went and the toast's Undo, which puts it back where it was (docs/decisions.md, "Links, reach and the deletion's words").
 */
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
      toast.success(DOCUMENT_DELETED, {
        id: "delete-document",
        description: `It is in your Trash for ${TRASH_RETENTION_DAYS} days. Undo puts it back.`,
        action: { label: "Undo", onClick: () => restore.mutate({ id }) },
      });
      await utils.documents.invalidate();
    },
    onError: (err) => {
      // The specification's words, then why when the server says (a signed document kept for its record).
      toast.error("Failed to delete document", { id: "delete-document", description: errorDetail(err) });
    },
  });
}
