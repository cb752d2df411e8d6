import { type FormEvent, useState } from "react";
import { Plus } from "lucide-react";
import { ClientPicker } from "@/components/client-picker/client-picker.tsx";
import { Button } from "@/components/ui/button.tsx";
import { DialogFooter } from "@/components/ui/dialog.tsx";
import { DialogFrame } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { APPOINTMENT_STATUSES, type AppointmentStatus } from "@server/domains/appointments/schemas.ts";
import type { PublicUser } from "@server/domains/auth/schemas.ts";
import { APPOINTMENT_STATUS_LABELS } from "@/lib/appointment-status.ts";
import { useCreateAppointment } from "./use-create-appointment.ts";

export function NewAppointmentDialog() {
  const [open, setOpen] = useState(false);
  return (
    <DialogFrame
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="accent">
          <Plus aria-hidden="true" />
          New appointment
        </Button>
      }
      className="max-w-xl"
      title="New appointment"
      description="Schedule an appointment for a client. They see it on their dashboard."
    >
      {open && <NewAppointmentForm onCreated={() => setOpen(false)} />}
    </DialogFrame>
  );
}

type Errors = Partial<Record<"client" | "title" | "date", string>>;

const isValidDate = (value: string) => value !== "" && !Number.isNaN(new Date(value).getTime());

function NewAppointmentForm({ onCreated }: { onCreated: () => void }) {
  const [client, setClient] = useState<PublicUser | null>(null);
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [date, setDate] = useState("");
  const [status, setStatus] = useState<AppointmentStatus>("scheduled");
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateAppointment();

  /** A message goes as soon as its field is fixed; the others wait for their own fields. */
  function clearError(field: keyof Errors, fixed: boolean) {
    if (fixed && errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!client) found.client = "Please choose a client";
    if (!title.trim()) found.title = "Title is required";
    if (!isValidDate(date)) found.date = "Please choose a valid date and time";
    setErrors(found);
    if (!client || Object.keys(found).length > 0) return;
    create.mutate(
      { user_id: client.id, title: title.trim(), description: description.trim(), appointment_date: new Date(date), status },
      { onSuccess: onCreated },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <ClientPicker
        selected={client}
        onSelect={(user) => {
          setClient(user);
          clearError("client", true);
        }}
        error={errors.client}
      />

      <FormField id="appointment-title" label="Title" error={errors.title} required>
        <Input
          value={title}
          onChange={(event) => {
            setTitle(event.target.value);
            clearError("title", event.target.value.trim() !== "");
          }}
          maxLength={200}
        />
      </FormField>
      <FormField id="appointment-description" label="Description">
        <Textarea rows={3} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={5000} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="appointment-date" label="Date and time" error={errors.date} required>
          <Input
            type="datetime-local"
            value={date}
            onChange={(event) => {
              setDate(event.target.value);
              clearError("date", isValidDate(event.target.value));
            }}
          />
        </FormField>
        <FormField id="appointment-status" label="Status">
          <Select value={status} onChange={(event) => setStatus(event.target.value as AppointmentStatus)}>
            {APPOINTMENT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {APPOINTMENT_STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <DialogFooter>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating..." : "Create appointment"}
        </Button>
      </DialogFooter>
    </form>
  );
}
