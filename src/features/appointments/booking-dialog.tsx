import { type FormEvent, useState } from "react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { cn } from "@/lib/cn.ts";
import { trpc } from "@/lib/trpc.ts";
import { type ClientAppointment, PHONE_NEEDED, type Slot } from "@server/domains/appointments/schemas.ts";
import { genericZoneName } from "@server/domains/appointments/firm-clock.ts";
import { MEETING_LOCATION_LABELS, type MeetingType } from "@server/domains/availability/schemas.ts";
import { dayAsDate, monthKeyOf, monthsBetween, monthWeeks, slotsByDay, viewerTimeZone } from "./slot-calendar.ts";
import { bookingRefusal } from "./booking-refusal.ts";
import { useBookAppointment } from "./use-book-appointment.ts";
import { useFreeSlots } from "./use-free-slots.ts";
import { useMeetingTypes } from "./use-meeting-types.ts";
import { useRescheduleAppointment } from "./use-reschedule-appointment.ts";

type BookingDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Set to move this appointment instead of booking a new one. */
  moving?: ClientAppointment | null;
  /** "None of these times work? Ask us": the request for a time of the client's choosing. */
  onAskUs?: () => void;
};

/**
 * Book an appointment (docs/decisions.md, Self-booking): a meeting type, a day with free times, a
 * time, confirm. Times are shown on the viewer's own clock, and the firm's zone is named.
 */
export function BookingDialog({ open, onOpenChange, moving = null, onAskUs }: BookingDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl max-sm:p-4">
        <DialogHeader>
          <DialogTitle>{moving ? "Move your appointment" : "Book an appointment"}</DialogTitle>
          <DialogDescription>
            <ZoneNote />
          </DialogDescription>
        </DialogHeader>
        {open && <BookingForm key={moving?.id ?? "new"} moving={moving} onDone={() => onOpenChange(false)} onAskUs={onAskUs} />}
      </DialogContent>
    </Dialog>
  );
}

/** "Times are in your time zone (Europe/Berlin). The firm is in Central Time." */
function ZoneNote() {
  const firmTimeZone = trpc.site.links.useQuery(undefined, { staleTime: Infinity }).data?.firmTimeZone;
  const viewer = viewerTimeZone();
  if (!firmTimeZone) return <>Times are in your time zone ({viewer}).</>;
  if (firmTimeZone === viewer) return <>Times are in your time zone ({viewer}), which is the firm&apos;s too.</>;
  return (
    <>
      Times are in your time zone ({viewer}). The firm is in {genericZoneName(firmTimeZone)}.
    </>
  );
}

const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: "long", month: "long", day: "numeric", year: "numeric" });
const monthLabel = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric" });
const timeLabel = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const rangeLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" });
const WEEKDAY_INITIALS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

function BookingForm({ moving, onDone, onAskUs }: { moving: ClientAppointment | null; onDone: () => void; onAskUs?: () => void }) {
  const [typeId, setTypeId] = useState<string | null>(null);
  const [day, setDay] = useState<string | null>(null);
  const [start, setStart] = useState<string | null>(null);
  const [month, setMonth] = useState<string | null>(null);
  const [notes, setNotes] = useState("");
  const [phone, setPhone] = useState("");
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const types = useMeetingTypes();
  const type = types.data?.find((t) => t.id === (moving?.meeting_type_id ?? typeId)) ?? null;
  const slots = useFreeSlots(moving ? { appointment: moving.id } : typeId ? { type: typeId } : null);
  const book = useBookAppointment({ onBooked: onDone });
  const reschedule = useRescheduleAppointment({ onMoved: onDone });
  const pending = book.isPending || reschedule.isPending;
  const refusal = pending ? null : bookingRefusal(moving ? reschedule.error : book.error);

  const days = slotsByDay(slots.data ?? []);
  const dayKeys = [...days.keys()];
  const months = dayKeys.length > 0 ? monthsBetween(monthKeyOf(dayKeys[0]!), monthKeyOf(dayKeys.at(-1)!)) : [];
  const shownMonth = month && months.includes(month) ? month : months[0];
  const daySlots = (day && days.get(day)) || [];
  const chosen = daySlots.find((slot) => slot.start === start) ?? null;
  const needsApproval = type?.requires_approval ?? false;
  const byPhone = !moving && type?.location === "phone";

  function chooseType(id: string) {
    setTypeId(id);
    setDay(null);
    setStart(null);
    setMonth(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosen) return;
    if (moving) reschedule.mutate({ id: moving.id, start: new Date(chosen.start) });
    else if (typeId) {
      // A meeting by phone needs the number the firm calls: asked here, not found missing at the meeting.
      if (byPhone && phone.trim() === "") {
        setPhoneError(PHONE_NEEDED);
        document.getElementById("booking-phone")?.focus();
        return;
      }
      setPhoneError(null);
      book.mutate({ type: typeId, start: new Date(chosen.start), notes: notes.trim(), phone: byPhone ? phone.trim() : "" });
    }
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-6">
      {moving ? (
        <p className="text-sm">
          Moving <span className="font-medium">{moving.title}</span>, now on{" "}
          <time dateTime={moving.appointment_date.toISOString()}>{rangeLabel.format(moving.appointment_date)}</time>.
        </p>
      ) : (
        <MeetingTypePicker types={types} value={typeId} onChange={chooseType} />
      )}

      {(moving || typeId) &&
        (slots.isPending ? (
          <Spinner label="Loading free times…" className="w-full justify-center py-6" />
        ) : slots.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Free times could not be loaded. Please try again.
          </p>
        ) : dayKeys.length === 0 ? (
          <p className="rounded-lg bg-muted p-4 text-sm">No free times are left in the booking period. Ask us for another time, or call us.</p>
        ) : (
          <div className="grid gap-6 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
            <DayPicker
              months={months}
              month={shownMonth!}
              onMonthChange={setMonth}
              days={days}
              value={day}
              onChange={(next) => {
                setDay(next);
                setStart(null);
              }}
            />
            <TimePicker day={day} slots={daySlots} value={start} onChange={setStart} />
          </div>
        ))}

      {byPhone && (
        <FormField id="booking-phone" label="Phone number" required hint="The number we call for this meeting." error={phoneError ?? undefined}>
          <Input type="tel" autoComplete="tel" value={phone} onChange={(event) => setPhone(event.target.value)} maxLength={40} />
        </FormField>
      )}

      {!moving && typeId && (
        <FormField id="booking-notes" label="Notes" hint="Optional: anything we should prepare.">
          <Textarea rows={3} value={notes} onChange={(event) => setNotes(event.target.value)} maxLength={2000} />
        </FormField>
      )}

      <div aria-live="polite" className="text-sm empty:hidden">
        {chosen && <Summary slot={chosen} needsApproval={needsApproval} />}
      </div>

      {onAskUs && (
        <Button variant="link" className="h-auto w-fit justify-self-start p-0 text-left whitespace-normal" onClick={onAskUs}>
          None of these times work? Ask us
        </Button>
      )}

      {refusal && (
        <p role="alert" className="rounded-lg border border-destructive/40 p-3 text-sm text-destructive">
          {refusal}
        </p>
      )}

      <FormDialogFooter
        variant="accent"
        pending={pending}
        disabled={!chosen}
        submitLabel={moving ? "Move appointment" : needsApproval ? "Request this time" : "Book appointment"}
        pendingLabel="Saving…"
      />
    </form>
  );
}

function MeetingTypePicker({
  types,
  value,
  onChange,
}: {
  types: ReturnType<typeof useMeetingTypes>;
  value: string | null;
  onChange: (id: string) => void;
}) {
  if (types.isPending) return <Spinner label="Loading meeting types…" className="w-full justify-center py-6" />;
  if (types.isError) return null;
  if (types.data.length === 0) {
    return <p className="rounded-lg bg-muted p-4 text-sm">Online booking is not open yet. Ask us for a time, or call us.</p>;
  }
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-3 text-sm font-medium">Meeting type</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {types.data.map((type) => (
          <label
            key={type.id}
            className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm transition-colors hover:bg-muted has-checked:border-accent has-checked:bg-accent-soft has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring"
          >
            <input
              type="radio"
              name="booking-type"
              value={type.id}
              checked={value === type.id}
              onChange={() => onChange(type.id)}
              className="mt-0.5 accent-accent"
            />
            <span className="grid min-w-0 gap-0.5">
              <span className="font-medium break-words">{type.name}</span>
              <span className="text-muted-foreground">{describeType(type)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** "60 min · Video call · the firm confirms" */
function describeType(type: MeetingType): string {
  return [`${type.duration_minutes} min`, MEETING_LOCATION_LABELS[type.location], type.requires_approval ? "the firm confirms" : null]
    .filter(Boolean)
    .join(" · ");
}

function DayPicker({
  months,
  month,
  onMonthChange,
  days,
  value,
  onChange,
}: {
  months: string[];
  month: string;
  onMonthChange: (month: string) => void;
  days: Map<string, Slot[]>;
  value: string | null;
  onChange: (day: string) => void;
}) {
  const index = months.indexOf(month);
  return (
    <fieldset className="grid content-start gap-3">
      <legend className="sr-only">Day</legend>
      <div className="flex items-center justify-between gap-2">
        <Button variant="ghost" size="icon-sm" aria-label="Previous month" disabled={index <= 0} onClick={() => onMonthChange(months[index - 1]!)}>
          <ChevronLeft aria-hidden="true" />
        </Button>
        <p aria-live="polite" className="font-medium">
          {monthLabel.format(dayAsDate(`${month}-01`))}
        </p>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Next month"
          disabled={index >= months.length - 1}
          onClick={() => onMonthChange(months[index + 1]!)}
        >
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
      <div aria-hidden="true" className="grid grid-cols-7 gap-1 text-center text-xs text-muted-foreground">
        {WEEKDAY_INITIALS.map((name) => (
          <span key={name}>{name}</span>
        ))}
      </div>
      <div className="grid grid-cols-7 gap-1">
        {monthWeeks(month)
          .flat()
          .map((key, i) => {
            if (!key) return <span key={`blank-${i}`} />;
            const count = days.get(key)?.length ?? 0;
            const label = `${dayLabel.format(dayAsDate(key))}, ${count === 0 ? "no free times" : count === 1 ? "1 free time" : `${count} free times`}`;
            return (
              <label
                key={key}
                className={cn(
                  "relative grid h-11 w-full place-items-center rounded-md text-sm tabular-nums transition-colors",
                  count === 0 ? "cursor-not-allowed text-muted-foreground/70" : "cursor-pointer bg-muted font-medium hover:bg-accent-soft",
                  value === key && "bg-accent text-accent-foreground hover:bg-accent",
                )}
              >
                <input
                  type="radio"
                  name="booking-day"
                  value={key}
                  checked={value === key}
                  disabled={count === 0}
                  aria-label={label}
                  onChange={() => onChange(key)}
                  className="peer sr-only"
                />
                <span
                  aria-hidden="true"
                  className="grid size-full place-items-center rounded-md peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring"
                >
                  {Number(key.slice(8))}
                </span>
              </label>
            );
          })}
      </div>
    </fieldset>
  );
}

function TimePicker({ day, slots, value, onChange }: { day: string | null; slots: Slot[]; value: string | null; onChange: (start: string) => void }) {
  if (!day) return <p className="self-center text-sm text-muted-foreground">Choose a day to see its free times.</p>;
  return (
    <fieldset className="grid content-start gap-3">
      <legend className="mb-3 text-sm font-medium">Free times on {dayLabel.format(dayAsDate(day))}</legend>
      <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
        {slots.map((slot) => (
          <label key={slot.start} className="relative cursor-pointer">
            <input
              type="radio"
              name="booking-time"
              value={slot.start}
              checked={value === slot.start}
              onChange={() => onChange(slot.start)}
              className="peer sr-only"
            />
            <span className="flex h-11 items-center justify-center rounded-md border border-input bg-card text-sm font-medium tabular-nums transition-colors hover:border-accent peer-checked:border-accent peer-checked:bg-accent peer-checked:text-accent-foreground peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring sm:h-10">
              {timeLabel.format(new Date(slot.start))}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Summary({ slot, needsApproval }: { slot: Slot; needsApproval: boolean }) {
  const firmTimeZone = trpc.site.links.useQuery(undefined, { staleTime: Infinity }).data?.firmTimeZone;
  const start = new Date(slot.start);
  const firmTime =
    firmTimeZone && firmTimeZone !== viewerTimeZone()
      ? ` (${new Intl.DateTimeFormat(undefined, { timeZone: firmTimeZone, hour: "numeric", minute: "2-digit" }).format(start)} ${genericZoneName(firmTimeZone)} at the firm)`
      : "";
  return (
    <p className="rounded-lg bg-accent-soft p-3 text-accent-soft-foreground">
      <span className="font-medium">{rangeLabel.formatRange(start, new Date(slot.end))}</span>
      {firmTime}.{needsApproval && " The firm confirms this kind of meeting; the time is held for you until then."}
    </p>
  );
}
