import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useResendConsultationEmail() {
  const utils = trpc.useUtils();
  return trpc.admin.consultations.resendEmail.useMutation({
    onSuccess: async () => {
      toast.success("Notification email queued again");
      await utils.admin.consultations.list.invalidate();
    },
    onError: (err) => {
      toast.error(err.data?.code === "CONFLICT" ? err.message : "Failed to resend the notification email");
      void utils.admin.consultations.list.invalidate();
    },
  });
}
