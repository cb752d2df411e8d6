import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

export function useRequestAppointment({ onRequested }: { onRequested: () => void }) {
  const utils = trpc.useUtils();
  return trpc.appointments.request.useMutation({
    onSuccess: async () => {
      toast.success("Appointment requested. We'll confirm the time with you shortly.");
      onRequested();
      await utils.appointments.list.invalidate();
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Failed to request appointment. Please try again.");
    },
  });
}
