import { type FormEvent, type RefObject, useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { requestAppointmentInput } from "@server/domains/appointments/schemas.ts";
import { PREFERRED_TIME_OPTIONS } from "@server/domains/consultation/schemas.ts";
import { useRequestAppointment } from "./use-request-appointment.ts";

type RequestAppointmentDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close, when what opened the dialog is gone (the booking dialog's "Ask us"). */
  returnFocusTo?: RefObject<HTMLElement | null>;
};

/** YYYY-MM-DD of today on the user's calendar, the earliest date the picker offers. */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const emptyForm = { title: "", preferredDate: "", preferredTime: "morning", notes: "" };

/** Schedule New Appointment (docs/decisions.md, Appointments): title, preferred date and time, notes. */
export function RequestAppointmentDialog({ open, onOpenChange, returnFocusTo }: RequestAppointmentDialogProps) {
  const [form, setForm] = useState(emptyForm);
  const [error, setError] = useState<string | null>(null);
  const requestAppointment = useRequestAppointment({
    onRequested: () => {
      setForm(emptyForm);
      onOpenChange(false);
    },
  });

  const field = (name: keyof typeof emptyForm) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = requestAppointmentInput.safeParse(form);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Please fill in all fields");
      return;
    }
    setError(null);
    requestAppointment.mutate(parsed.data);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(null);
        onOpenChange(next);
      }}
    >
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo?.current) return;
          event.preventDefault();
          returnFocusTo.current.focus();
        }}
      >
        <form onSubmit={submit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Schedule New Appointment</DialogTitle>
            <DialogDescription>Tell us what you need and when suits you; we'll confirm the time.</DialogDescription>
          </DialogHeader>
          <FormField id="appointment-title" label="Title" required>
            <Input {...field("title")} maxLength={200} placeholder="e.g. Quarterly tax review" />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="appointment-date" label="Preferred date" required>
              <Input type="date" min={localToday()} {...field("preferredDate")} />
            </FormField>
            <FormField id="appointment-time" label="Preferred time" required>
              <Select {...field("preferredTime")}>
                {PREFERRED_TIME_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            </FormField>
          </div>
          <FormField id="appointment-notes" label="Notes" hint="Optional: anything we should prepare.">
            <Textarea {...field("notes")} maxLength={5000} />
          </FormField>
          <p role="alert" className="text-sm text-destructive empty:hidden">
            {error}
          </p>
          <FormDialogFooter
            variant="accent"
            pending={requestAppointment.isPending}
            submitLabel="Request Appointment"
            pendingLabel="Sending Request..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
