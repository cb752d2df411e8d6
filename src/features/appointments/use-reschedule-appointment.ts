import { toast } from "sonner";
import { errorDetail, httpStatus } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { isBookingRefusal } from "./booking-refusal.ts";

export function useRescheduleAppointment({ onMoved }: { onMoved: () => void }) {
  const utils = trpc.useUtils();
  return trpc.appointments.reschedule.useMutation({
    onSuccess: async (appointment) => {
      toast.success(appointment.status === "requested" ? "New time requested. We'll confirm it shortly." : "Appointment moved");
      onMoved();
      await Promise.all([utils.appointments.list.invalidate(), utils.appointments.slots.invalidate()]);
    },
    onError: async (err) => {
      // A refusal (taken, too many changes) is shown in the dialog itself.
      if (!isBookingRefusal(err)) toast.error(errorDetail(err) ?? "Failed to move the appointment. Please try again.");
      if (httpStatus(err) === 409) await Promise.all([utils.appointments.slots.invalidate(), utils.appointments.list.invalidate()]);
    },
  });
}
