import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** A consultation request turned into an invited client in one step: their account, the invitation's email, the request handled. */
export function useInviteConsultation() {
  const utils = trpc.useUtils();
  return trpc.admin.consultations.invite.useMutation({
    onSuccess: (invitation) => toast.success(`Invitation sent to ${invitation.email}`),
    onError: (err) => toast.error(errorDetail(err) ?? "Failed to send the invitation"),
    onSettled: () =>
      Promise.all([utils.admin.consultations.list.invalidate(), utils.admin.invitations.list.invalidate(), utils.admin.inbox.list.invalidate()]),
  });
}
