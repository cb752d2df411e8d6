import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useSetConsultationHandled() {
  const utils = trpc.useUtils();
  return trpc.admin.setConsultationHandled.useMutation({
    onSuccess: async (_data, { handled }) => {
      toast.success(handled ? "Consultation request marked as handled" : "Consultation request marked as open");
      await utils.admin.consultations.invalidate();
    },
    onError: () => {
      toast.error("Failed to update consultation request");
    },
  });
}
