import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Status changes and rescheduling. */
export function useUpdateAppointment() {
  const utils = trpc.useUtils();
  return trpc.admin.updateAppointment.useMutation({
    onSuccess: async () => {
      toast.success("Appointment updated");
      await Promise.all([utils.admin.appointments.invalidate(), utils.admin.appointmentCalendar.invalidate()]);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to update appointment");
    },
  });
}
