import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** A client's storage quota in MB, or null for the firm's default; the users list shows the new one. */
export function useSetUserQuota() {
  const utils = trpc.useUtils();
  return trpc.admin.setUserQuota.useMutation({
    onSuccess: async () => {
      toast.success("Storage quota updated");
      await utils.admin.users.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to update the storage quota");
    },
  });
}
