import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useSetConsultationHandled() {
  const utils = trpc.useUtils();
  return trpc.admin.consultations.setHandled.useMutation({
    onSuccess: async (_data, { handled }) => {
      toast.success(handled ? "Consultation request marked as handled" : "Consultation request marked as open");
      await utils.admin.consultations.list.invalidate();
    },
    onError: () => {
      toast.error("Failed to update consultation request");
    },
  });
}
