import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Status changes and rescheduling. */
export function useUpdateAppointment() {
  const utils = trpc.useUtils();
  return trpc.admin.appointments.update.useMutation({
    onSuccess: async () => {
      toast.success("Appointment updated");
      await Promise.all([utils.admin.appointments.list.invalidate(), utils.admin.appointments.calendar.invalidate()]);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to update appointment");
    },
  });
}
