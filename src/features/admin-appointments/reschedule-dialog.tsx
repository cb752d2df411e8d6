import { type FormEvent, useState } from "react";
import { CalendarClock } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog.tsx";
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
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Reschedule ${appointment.title} for ${appointment.user_name}`}>
          <CalendarClock aria-hidden="true" />
          Reschedule
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Reschedule appointment</DialogTitle>
          <DialogDescription>
            {appointment.title} with {appointment.user_name}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <FormField id={`reschedule-${appointment.id}`} label="New date and time" error={error} required>
            <Input type="datetime-local" value={date} onChange={(event) => setDate(event.target.value)} />
          </FormField>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
