import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";
import { useRefreshClientFiles } from "./use-refresh-client-files.ts";

/** Moves one of the client's documents to their trash (a firm's share pulled back, or a client's upload deleted); the Documents tab's trash restores it. */
export function useTrashClientDocument(clientId: string) {
  const utils = trpc.useUtils();
  const refresh = useRefreshClientFiles(clientId);
  return trpc.admin.deleteDocument.useMutation({
    onSuccess: () => {
      toast.success("Moved to trash");
      refresh();
      void Promise.all([utils.admin.trash.invalidate(), utils.admin.stats.invalidate()]);
    },
    onError: () => {
      toast.error("Failed to delete document");
    },
  });
}
