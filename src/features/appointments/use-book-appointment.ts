import { toast } from "sonner";
import { errorDetail, httpStatus } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { isBookingRefusal } from "./booking-refusal.ts";

export function useBookAppointment({ onBooked }: { onBooked: () => void }) {
  const utils = trpc.useUtils();
  return trpc.appointments.book.useMutation({
    onSuccess: async (appointment) => {
      toast.success(appointment.status === "requested" ? "Appointment requested. We'll confirm it shortly." : "Appointment booked");
      onBooked();
      await Promise.all([utils.appointments.list.invalidate(), utils.appointments.slots.invalidate()]);
    },
    onError: async (err) => {
      // A refusal (taken, too many bookings, too many changes) is shown in the dialog itself.
      if (!isBookingRefusal(err)) toast.error(errorDetail(err) ?? "Failed to book the appointment. Please try again.");
      // Someone else took the time: show what is still free.
      if (httpStatus(err) === 409) await utils.appointments.slots.invalidate();
    },
  });
}
