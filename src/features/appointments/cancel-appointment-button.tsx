import { X } from "lucide-react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog.tsx";
import { Button } from "@/components/ui/button.tsx";
import type { ClientAppointment } from "@server/routers/appointments/schemas.ts";
import { useCancelAppointment } from "./use-cancel-appointment.ts";

/** Cancels one of the client's appointments after asking; "Keep it" is the safe way out. */
export function CancelAppointmentButton({ appointment }: { appointment: ClientAppointment }) {
  const cancel = useCancelAppointment();
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost-destructive" size="sm" disabled={cancel.isPending} aria-label={`Cancel ${appointment.title}`}>
          <X aria-hidden="true" />
          Cancel
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Cancel appointment</AlertDialogTitle>
          <AlertDialogDescription>Are you sure you want to cancel this appointment? Its time is then offered to others.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep it</AlertDialogCancel>
          <AlertDialogAction onClick={() => cancel.mutate({ id: appointment.id })}>Cancel appointment</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
