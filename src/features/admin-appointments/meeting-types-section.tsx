import { type FormEvent, useState } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import {
  createMeetingTypeInput,
  MEETING_LOCATION_LABELS,
  MEETING_LOCATIONS,
  type MeetingLocation,
  type MeetingType,
} from "@server/domains/availability/schemas.ts";
import { useCreateMeetingType } from "./use-create-meeting-type.ts";
import { useDeleteMeetingType } from "./use-delete-meeting-type.ts";
import { useMeetingTypes } from "./use-meeting-types.ts";
import { useUpdateMeetingType } from "./use-update-meeting-type.ts";

const DETAIL_HINTS: Record<MeetingLocation, string> = {
  office: "Optional: directions; the site's address is used otherwise.",
  phone: "Optional: who calls whom, or a number to dial.",
  video: "The link clients join, for example https://meet.example.com/firm.",
};

/** "60 min, then 15 min free · Video call" */
function describe(type: MeetingType): string {
  const length = type.buffer_minutes > 0 ? `${type.duration_minutes} min, then ${type.buffer_minutes} min free` : `${type.duration_minutes} min`;
  return `${length} · ${MEETING_LOCATION_LABELS[type.location]}`;
}

/** The kinds of meeting clients can book: added, changed and deleted here. */
export function MeetingTypesSection() {
  const types = useMeetingTypes();
  const remove = useDeleteMeetingType();
  const [editing, setEditing] = useState<MeetingType | "new" | null>(null);

  return (
    <section aria-labelledby="meeting-types-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h3 id="meeting-types-heading" className="text-lg font-semibold">
            Meeting types
          </h3>
          <p className="text-sm text-muted-foreground">What clients choose from when they book.</p>
        </div>
        <Button variant="accent" onClick={() => setEditing("new")}>
          <Plus aria-hidden="true" />
          New meeting type
        </Button>
      </div>
      {types.isPending ? (
        <Spinner label="Loading meeting types…" className="w-full justify-center py-6" />
      ) : types.isError ? (
        <LoadError message="Failed to load the meeting types" onRetry={() => void types.refetch()} isRetrying={types.isFetching} />
      ) : types.data.length === 0 ? (
        <p className="py-4 text-sm text-muted-foreground">No meeting types yet: add one to open online booking.</p>
      ) : (
        <ul className="divide-y" aria-label="Meeting types">
          {types.data.map((type) => (
            <li key={type.id} className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
              <div className="grid min-w-0 gap-1">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="break-words">{type.name}</span>
                  {type.requires_approval && <Badge variant="muted">Needs approval</Badge>}
                </p>
                <p className="text-sm text-muted-foreground">{describe(type)}</p>
                {type.location_detail && <p className="text-sm wrap-anywhere text-muted-foreground">{type.location_detail}</p>}
              </div>
              <div className="flex shrink-0 gap-2">
                <Button variant="outline" size="sm" aria-label={`Edit ${type.name}`} onClick={() => setEditing(type)}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
                <ConfirmAction
                  trigger={
                    <Button variant="ghost-destructive" size="sm" aria-label={`Delete ${type.name}`} disabled={remove.isPending}>
                      <Trash2 aria-hidden="true" />
                      Delete
                    </Button>
                  }
                  title="Delete meeting type"
                  question="Are you sure you want to delete this meeting type? Clients can no longer book it; appointments already booked keep it."
                  confirmLabel="Delete meeting type"
                  onConfirm={() => remove.mutate({ id: type.id })}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{editing === "new" ? "New meeting type" : "Edit meeting type"}</DialogTitle>
            <DialogDescription>Changes apply to new bookings; booked appointments keep their length.</DialogDescription>
          </DialogHeader>
          {editing !== null && (
            <MeetingTypeForm
              key={editing === "new" ? "new" : editing.id}
              type={editing === "new" ? null : editing}
              onSaved={() => setEditing(null)}
            />
          )}
        </DialogContent>
      </Dialog>
    </section>
  );
}

function MeetingTypeForm({ type, onSaved }: { type: MeetingType | null; onSaved: () => void }) {
  const [form, setForm] = useState({
    name: type?.name ?? "",
    duration: String(type?.duration_minutes ?? 60),
    buffer: String(type?.buffer_minutes ?? 0),
    location: type?.location ?? ("office" as MeetingLocation),
    detail: type?.location_detail ?? "",
    requiresApproval: type?.requires_approval ?? false,
  });
  const [error, setError] = useState<string | null>(null);
  const create = useCreateMeetingType();
  const update = useUpdateMeetingType();
  const pending = create.isPending || update.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createMeetingTypeInput.safeParse({
      name: form.name,
      duration_minutes: Number(form.duration),
      buffer_minutes: Number(form.buffer),
      location: form.location,
      location_detail: form.detail,
      requires_approval: form.requiresApproval,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Please check the fields");
      return;
    }
    setError(null);
    if (type) update.mutate({ id: type.id, ...parsed.data }, { onSuccess: onSaved });
    else create.mutate(parsed.data, { onSuccess: onSaved });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormField id="meeting-type-name" label="Name" required>
        <Input value={form.name} maxLength={100} onChange={(event) => setForm({ ...form, name: event.target.value })} placeholder="e.g. Tax review" />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="meeting-type-duration" label="Length (minutes)" required>
          <Input
            type="number"
            inputMode="numeric"
            min={5}
            max={480}
            step={5}
            value={form.duration}
            onChange={(event) => setForm({ ...form, duration: event.target.value })}
          />
        </FormField>
        <FormField id="meeting-type-buffer" label="Free time after (minutes)" hint="Kept free after each meeting.">
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            max={240}
            step={5}
            value={form.buffer}
            onChange={(event) => setForm({ ...form, buffer: event.target.value })}
          />
        </FormField>
      </div>
      <FormField id="meeting-type-location" label="Where">
        <Select value={form.location} onChange={(event) => setForm({ ...form, location: event.target.value as MeetingLocation })}>
          {MEETING_LOCATIONS.map((location) => (
            <option key={location} value={location}>
              {MEETING_LOCATION_LABELS[location]}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField id="meeting-type-detail" label="Location details" hint={DETAIL_HINTS[form.location]}>
        <Input value={form.detail} maxLength={500} onChange={(event) => setForm({ ...form, detail: event.target.value })} />
      </FormField>
      <label className="flex cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          checked={form.requiresApproval}
          onChange={(event) => setForm({ ...form, requiresApproval: event.target.checked })}
          className="mt-0.5 size-4 accent-accent"
        />
        <span>
          <span className="font-medium">The firm approves each booking</span>
          <span className="block text-muted-foreground">Bookings wait as Requested until you set them to Scheduled.</span>
        </span>
      </label>
      <p role="alert" className="text-sm text-destructive empty:hidden">
        {error}
      </p>
      <FormDialogFooter pending={pending} submitLabel={type ? "Save" : "Add meeting type"} pendingLabel="Saving…" />
    </form>
  );
}
