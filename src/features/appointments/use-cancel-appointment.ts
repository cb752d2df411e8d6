import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useCancelAppointment() {
  const utils = trpc.useUtils();
  return trpc.appointments.cancel.useMutation({
    onSuccess: async () => {
      toast.success("Appointment cancelled");
      await Promise.all([utils.appointments.list.invalidate(), utils.appointments.slots.invalidate()]);
    },
    onError: async (err) => {
      toast.error(errorDetail(err) ?? "Failed to cancel the appointment. Please try again.");
      await utils.appointments.list.invalidate();
    },
  });
}
