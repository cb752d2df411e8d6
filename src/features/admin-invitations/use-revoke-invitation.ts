import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useRevokeInvitation() {
  const utils = trpc.useUtils();
  return trpc.admin.invitations.revoke.useMutation({
    onSuccess: async () => {
      toast.success("Invitation revoked: its link no longer works.");
      await utils.admin.invitations.list.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "The invitation could not be revoked."),
  });
}
