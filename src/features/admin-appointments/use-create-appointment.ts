import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useCreateAppointment() {
  const utils = trpc.useUtils();
  return trpc.admin.appointments.create.useMutation({
    onSuccess: async () => {
      toast.success("Appointment created");
      await Promise.all([utils.admin.appointments.list.invalidate(), utils.admin.appointments.calendar.invalidate(), utils.admin.stats.invalidate()]);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to create appointment");
    },
  });
}
