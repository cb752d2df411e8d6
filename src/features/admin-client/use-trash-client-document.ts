import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { DOCUMENT_DELETED, firmTrashNote } from "@/lib/document-deleted.ts";
import { trpc } from "@/lib/trpc.ts";
import { useRefreshClientFiles } from "./use-refresh-client-files.ts";

/**
 * Moves one of the client's documents to their trash (a firm's share pulled back, or a client's
 * upload deleted); the toast's Undo, and the Documents tab's trash, restore it.
 */
export function useTrashClientDocument(clientId: string) {
  const utils = trpc.useUtils();
  const refresh = useRefreshClientFiles(clientId);
  const afterChange = () => {
    refresh();
    void Promise.all([utils.admin.documents.trash.invalidate(), utils.admin.stats.invalidate()]);
  };
  const restore = trpc.admin.documents.restore.useMutation({
    onSuccess: (document) => {
      toast.success(`Restored "${document.original_filename}"`);
      afterChange();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to restore document");
    },
  });
  const mutation = trpc.admin.documents.delete.useMutation({
    onSuccess: afterChange,
    onError: (err) => {
      toast.error("Failed to delete document", { description: errorDetail(err) });
    },
  });
  return {
    /** The document being moved, while it is. */
    pendingId: mutation.isPending ? mutation.variables.id : null,
    /** A document the firm shared is pulled back (the client no longer sees it); a client's own upload is deleted. */
    trash: (document: { id: string; from_firm: boolean }) =>
      mutation.mutate(
        { id: document.id },
        {
          onSuccess: (result) =>
            toast.success(document.from_firm ? "Document pulled back" : DOCUMENT_DELETED, {
              description: document.from_firm
                ? `The client no longer sees it. ${firmTrashNote(result.legal_hold, "firm")}`
                : firmTrashNote(result.legal_hold),
              action: { label: "Undo", onClick: () => restore.mutate({ id: document.id }) },
            }),
        },
      ),
  };
}
