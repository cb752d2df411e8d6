import { X } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import type { ClientAppointment } from "@server/domains/appointments/schemas.ts";
import { useCancelAppointment } from "./use-cancel-appointment.ts";

/** Cancels one of the client's appointments after asking; "Keep it" is the safe way out. */
export function CancelAppointmentButton({ appointment }: { appointment: ClientAppointment }) {
  const cancel = useCancelAppointment();
  return (
    <ConfirmAction
      trigger={
        <Button variant="ghost-destructive" size="sm" disabled={cancel.isPending} aria-label={`Cancel ${appointment.title}`}>
          <X aria-hidden="true" />
          Cancel
        </Button>
      }
      title="Cancel appointment"
      question="Are you sure you want to cancel this appointment? Its time is then offered to others."
      confirmLabel="Cancel appointment"
      cancelLabel="Keep it"
      onConfirm={() => cancel.mutate({ id: appointment.id })}
    />
  );
}
