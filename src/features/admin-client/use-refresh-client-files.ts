import { useCallback } from "react";
import { trpc } from "@/lib/trpc.ts";

/** After an upload into the client's documents: their lists and their storage, and the firm's lists of everybody's documents. */
export function useRefreshClientFiles(id: string) {
  const utils = trpc.useUtils();
  return useCallback(() => {
    void utils.admin.clients.documents.invalidate({ id });
    void utils.admin.clients.get.invalidate({ id });
    void utils.admin.documents.list.invalidate();
    void utils.admin.users.invalidate();
  }, [utils, id]);
}
