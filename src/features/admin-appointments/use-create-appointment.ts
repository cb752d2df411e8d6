import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useCreateAppointment() {
  const utils = trpc.useUtils();
  return trpc.admin.createAppointment.useMutation({
    onSuccess: async () => {
      toast.success("Appointment created");
      await Promise.all([utils.admin.appointments.invalidate(), utils.admin.appointmentCalendar.invalidate(), utils.admin.stats.invalidate()]);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to create appointment");
    },
  });
}
