import { type FormEvent, useState } from "react";
import { CalendarClock } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import type { AdminAppointment } from "@server/domains/admin/schemas.ts";
import { toDateTimeLocal } from "./date-time-local.ts";
import { useUpdateAppointment } from "./use-update-appointment.ts";

export function RescheduleDialog({ appointment }: { appointment: AdminAppointment }) {
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState("");
  const [error, setError] = useState<string>();
  const update = useUpdateAppointment();

  function openChange(next: boolean) {
    if (next) {
      setDate(toDateTimeLocal(new Date(appointment.appointment_date)));
      setError(undefined);
    }
    setOpen(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const when = new Date(date);
    if (!date || Number.isNaN(when.getTime())) {
      setError("Please choose a valid date and time");
      return;
    }
    update.mutate({ id: appointment.id, appointment_date: when }, { onSuccess: () => setOpen(false) });
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Reschedule ${appointment.title} for ${appointment.user_name}`}>
          <CalendarClock aria-hidden="true" />
          Reschedule
        </Button>
      }
      className="max-w-md"
      title="Reschedule appointment"
      description={
        <>
          {appointment.title} with {appointment.user_name}
        </>
      }
      onSubmit={submit}
    >
      <FormField id={`reschedule-${appointment.id}`} label="New date and time" error={error} required>
        <Input type="datetime-local" value={date} onChange={(event) => setDate(event.target.value)} />
      </FormField>
      <FormDialogFooter pending={update.isPending} submitLabel="Save" pendingLabel="Saving..." />
    </FormDialog>
  );
}
