import { type FormEvent, useState } from "react";
import { Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { formatDate } from "@/lib/format.ts";
import { addDays, genericZoneName, localDate } from "@server/domains/appointments/firm-clock.ts";
import { federalHolidaysBetween } from "@server/domains/appointments/holidays.ts";
import {
  type Availability,
  availabilityInput,
  MAX_HORIZON_DAYS,
  MAX_UPCOMING_BOOKINGS_LIMIT,
  MAX_MIN_NOTICE_HOURS,
  WEEKDAYS,
} from "@server/domains/availability/schemas.ts";
import { useAvailability } from "./use-availability.ts";
import { useSaveAvailability } from "./use-save-availability.ts";

type Range = { start: string; end: string };
type Draft = {
  hours: Record<number, Range[]>;
  daysOff: string[];
  skipFederalHolidays: boolean;
  minNoticeHours: string;
  horizonDays: string;
  maxUpcomingBookings: string;
};

// A time field cannot show 24:00; the end of the day is 00:00 there, and 24:00 when saved.
const toField = (time: string) => (time === "24:00" ? "00:00" : time);
const fromEndField = (time: string) => (time === "00:00" ? "24:00" : time);

function draftOf(availability: Availability): Draft {
  const hours: Record<number, Range[]> = Object.fromEntries(WEEKDAYS.map((weekday) => [weekday.value, []]));
  for (const range of availability.weekly) hours[range.weekday]!.push({ start: toField(range.start), end: toField(range.end) });
  return {
    hours,
    daysOff: availability.days_off,
    skipFederalHolidays: availability.skip_federal_holidays,
    minNoticeHours: String(availability.min_notice_hours),
    horizonDays: String(availability.horizon_days),
    maxUpcomingBookings: String(availability.max_upcoming_bookings),
  };
}

/** The firm's weekly hours (several ranges a day), minimum notice, booking horizon, bookings per client and days off, saved together. */
export function AvailabilityEditor() {
  const availability = useAvailability();
  if (availability.isPending) return <Spinner label="Loading availability…" className="w-full justify-center py-10" />;
  if (availability.isError) {
    return <LoadError message="Failed to load the availability" onRetry={() => void availability.refetch()} isRetrying={availability.isFetching} />;
  }
  return <AvailabilityForm key={availability.dataUpdatedAt} availability={availability.data} />;
}

function AvailabilityForm({ availability }: { availability: Availability }) {
  const [draft, setDraft] = useState(() => draftOf(availability));
  const [newDayOff, setNewDayOff] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = useSaveAvailability();
  const zone = `${genericZoneName(availability.time_zone)} (${availability.time_zone})`;
  // The holidays within the saved horizon, on the firm's calendar, so the firm sees what it closes.
  const today = localDate(new Date(), availability.time_zone);
  const upcomingHolidays = federalHolidaysBetween(today, addDays(today, availability.horizon_days));

  const setHours = (weekday: number, change: (ranges: Range[]) => Range[]) =>
    setDraft((d) => ({ ...d, hours: { ...d.hours, [weekday]: change(d.hours[weekday] ?? []) } }));
  const setRange = (weekday: number, index: number, change: Partial<Range>) =>
    setHours(weekday, (ranges) => ranges.map((range, i) => (i === index ? { ...range, ...change } : range)));

  function addDayOff() {
    if (!newDayOff) return;
    setDraft((d) => ({ ...d, daysOff: [...new Set([...d.daysOff, newDayOff])].sort() }));
    setNewDayOff("");
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = availabilityInput.safeParse({
      weekly: WEEKDAYS.flatMap((weekday) =>
        (draft.hours[weekday.value] ?? []).map((range) => ({ weekday: weekday.value, start: range.start, end: fromEndField(range.end) })),
      ),
      days_off: draft.daysOff,
      skip_federal_holidays: draft.skipFederalHolidays,
      min_notice_hours: Number(draft.minNoticeHours),
      horizon_days: Number(draft.horizonDays),
      max_upcoming_bookings: Number(draft.maxUpcomingBookings),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Please check the hours");
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-6 rounded-xl border bg-card p-4 sm:p-6">
      <div className="grid gap-1">
        <h3 className="text-lg font-semibold">Opening hours</h3>
        <p className="text-sm text-muted-foreground">Clients can book inside these hours, on the firm&apos;s clock: {zone}.</p>
      </div>
      <div className="grid gap-4">
        {WEEKDAYS.map((weekday) => {
          const ranges = draft.hours[weekday.value] ?? [];
          return (
            <div
              key={weekday.value}
              role="group"
              aria-labelledby={`hours-${weekday.value}`}
              className="grid gap-2 border-b pb-4 last:border-b-0 sm:grid-cols-[8rem_1fr] sm:items-start"
            >
              <p id={`hours-${weekday.value}`} className="text-sm font-medium sm:pt-2.5">
                {weekday.label}
              </p>
              <div className="grid gap-2">
                {ranges.length === 0 && <p className="text-sm text-muted-foreground sm:pt-2.5">Closed</p>}
                {ranges.map((range, index) => (
                  <div key={index} className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_auto] items-center gap-2 sm:flex">
                    <Input
                      type="time"
                      aria-label={`${weekday.label} from`}
                      value={range.start}
                      onChange={(event) => setRange(weekday.value, index, { start: event.target.value })}
                      className="px-2 max-sm:[&::-webkit-calendar-picker-indicator]:hidden sm:w-36 sm:px-3"
                    />
                    <span className="text-sm text-muted-foreground">to</span>
                    <Input
                      type="time"
                      aria-label={`${weekday.label} until`}
                      value={range.end}
                      onChange={(event) => setRange(weekday.value, index, { end: event.target.value })}
                      className="px-2 max-sm:[&::-webkit-calendar-picker-indicator]:hidden sm:w-36 sm:px-3"
                    />
                    <Button
                      variant="ghost-destructive"
                      size="icon-sm"
                      aria-label={`Remove ${weekday.label} ${range.start} to ${range.end}`}
                      onClick={() => setHours(weekday.value, (all) => all.filter((_, i) => i !== index))}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                ))}
                <Button
                  variant="outline"
                  size="sm"
                  className="w-fit"
                  aria-label={`Add hours on ${weekday.label}`}
                  onClick={() => setHours(weekday.value, (all) => [...all, { start: "09:00", end: "17:00" }])}
                >
                  <Plus aria-hidden="true" />
                  Add hours
                </Button>
              </div>
            </div>
          );
        })}
      </div>

      <div className="grid gap-4 sm:grid-cols-3">
        <FormField
          id="availability-notice"
          label="Minimum notice (hours)"
          hint="How long before a time it can still be booked, moved or cancelled online."
        >
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_MIN_NOTICE_HOURS}
            value={draft.minNoticeHours}
            onChange={(event) => setDraft((d) => ({ ...d, minNoticeHours: event.target.value }))}
          />
        </FormField>
        <FormField id="availability-horizon" label="Bookable ahead (days)" hint="How far ahead clients may book.">
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_HORIZON_DAYS}
            value={draft.horizonDays}
            onChange={(event) => setDraft((d) => ({ ...d, horizonDays: event.target.value }))}
          />
        </FormField>
        <FormField
          id="availability-max-bookings"
          label="Upcoming bookings per client"
          hint="How many upcoming appointments one client may hold by booking online."
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_UPCOMING_BOOKINGS_LIMIT}
            value={draft.maxUpcomingBookings}
            onChange={(event) => setDraft((d) => ({ ...d, maxUpcomingBookings: event.target.value }))}
          />
        </FormField>
      </div>

      <div className="grid gap-3">
        <h3 className="text-base font-semibold">Days off</h3>
        <div className="grid gap-1">
          <label className="flex w-fit cursor-pointer items-center gap-3 text-sm font-medium">
            <input
              type="checkbox"
              className="size-5 cursor-pointer accent-[var(--color-accent)]"
              checked={draft.skipFederalHolidays}
              onChange={(event) => setDraft((d) => ({ ...d, skipFederalHolidays: event.target.checked }))}
            />
            Closed on US federal holidays
          </label>
          <p className="text-sm text-muted-foreground">
            Clients cannot book on the day each is observed
            {upcomingHolidays.length > 0
              ? `; within your booking horizon: ${upcomingHolidays.map((h) => `${h.name} (${formatDate(`${h.date}T12:00:00`)})`).join(", ")}.`
              : "."}
          </p>
        </div>
        {draft.daysOff.length === 0 ? (
          <p className="text-sm text-muted-foreground">No days off.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label="Days off">
            {draft.daysOff.map((day) => (
              <li key={day} className="flex items-center gap-1 rounded-full border bg-muted py-0.5 pr-0.5 pl-3 text-sm">
                <time dateTime={day}>{formatDate(`${day}T12:00:00`)}</time>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Remove the day off ${formatDate(`${day}T12:00:00`)}`}
                  onClick={() => setDraft((d) => ({ ...d, daysOff: d.daysOff.filter((other) => other !== day) }))}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <FormField id="availability-day-off" label="Add a day off" className="w-48">
            <Input type="date" value={newDayOff} onChange={(event) => setNewDayOff(event.target.value)} />
          </FormField>
          <Button variant="outline" onClick={addDayOff} disabled={!newDayOff}>
            <Plus aria-hidden="true" />
            Add day off
          </Button>
        </div>
      </div>

      <p role="alert" className="text-sm text-destructive empty:hidden">
        {error}
      </p>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save availability"}
        </Button>
      </div>
    </form>
  );
}
