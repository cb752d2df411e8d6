import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useResendInvitation() {
  const utils = trpc.useUtils();
  return trpc.admin.invitations.resend.useMutation({
    onSuccess: async (invitation) => {
      toast.success(`A new invitation is on its way to ${invitation.email}.`);
      await utils.admin.invitations.list.invalidate();
    },
    onError: (err) => toast.error(errorDetail(err) ?? "The invitation could not be sent again."),
  });
}
