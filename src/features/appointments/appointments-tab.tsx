import { lazy, Suspense, useRef, useState } from "react";
import { CalendarClock, CalendarDays, CalendarPlus, MapPin } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { APPOINTMENT_STATUS_LABELS } from "@/lib/appointment-status.ts";
import { formatDateTimeWithZone } from "@/lib/format.ts";
import { trpc } from "@/lib/trpc.ts";
import type { ClientAppointment } from "@server/domains/appointments/schemas.ts";
import { windowOf, zoneName } from "@server/domains/appointments/firm-clock.ts";
import { MEETING_LOCATION_LABELS } from "@server/domains/availability/schemas.ts";
import { PREFERRED_TIME_OPTIONS } from "@server/domains/consultation/schemas.ts";
import { CancelAppointmentButton } from "./cancel-appointment-button.tsx";
import { useAppointments } from "./use-appointments.ts";
import { useMeetingTypes } from "./use-meeting-types.ts";

const RequestAppointmentDialog = lazy(async () => ({
  default: (await import("./request-appointment-dialog.tsx")).RequestAppointmentDialog,
}));
const BookingDialog = lazy(async () => ({ default: (await import("./booking-dialog.tsx")).BookingDialog }));

const rangeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const zoneFormat = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" });

/** "Mar 16, 2027, 4:00 – 5:00 PM GMT+1": a booked meeting from start to end, on the viewer's clock. */
function formatMeeting(start: Date, end: Date): string {
  const zone = zoneFormat.formatToParts(start).find((part) => part.type === "timeZoneName")?.value;
  return `${rangeFormat.formatRange(start, end)}${zone ? ` ${zone}` : ""}`;
}

/**
 * A requested appointment shows the window the client asked for ("Afternoon (12 PM-5 PM)"), on
 * the firm's clock, until the firm sets a time; a set time shows in the viewer's zone, named.
 */
function AppointmentTime({ appointment, firmTimeZone }: { appointment: ClientAppointment; firmTimeZone: string | undefined }) {
  const date = appointment.appointment_date;
  const window = appointment.status === "requested" && !appointment.meeting_type_id && firmTimeZone ? windowOf(date, firmTimeZone) : null;
  if (window && firmTimeZone) {
    const label = PREFERRED_TIME_OPTIONS.find((option) => option.value === window)!.label;
    const isoDate = new Intl.DateTimeFormat("en-CA", { timeZone: firmTimeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
    const shownDate = new Intl.DateTimeFormat(undefined, { timeZone: firmTimeZone, dateStyle: "medium" }).format(date);
    return (
      <span>
        <time dateTime={isoDate}>{shownDate}</time>, {label}, {zoneName(date, firmTimeZone)}{" "}
        <span className="text-muted-foreground">(requested; we will confirm a time)</span>
      </span>
    );
  }
  return (
    <span>
      <time dateTime={date.toISOString()}>{appointment.ends_at ? formatMeeting(date, appointment.ends_at) : formatDateTimeWithZone(date)}</time>
      {appointment.status === "requested" && <span className="text-muted-foreground"> (waiting for the firm&apos;s confirmation)</span>}
    </span>
  );
}

/**
 * Reschedule and cancel while the firm's notice period allows (as of `asOf`, when the list was
 * loaded); after that, a word on whom to call. The server checks again either way.
 */
function AppointmentActions({
  appointment,
  asOf,
  onMove,
}: {
  appointment: ClientAppointment;
  asOf: number;
  onMove: (appointment: ClientAppointment) => void;
}) {
  if (!appointment.changeable_until) return null;
  if (appointment.changeable_until.getTime() < asOf) {
    return <p className="text-sm text-muted-foreground">It is too close to the start to change this online; please call us.</p>;
  }
  return (
    <div className="flex flex-wrap gap-2">
      {appointment.meeting_type_id && (
        <Button variant="outline" size="sm" onClick={() => onMove(appointment)} aria-label={`Reschedule ${appointment.title}`}>
          <CalendarClock aria-hidden="true" />
          Reschedule
        </Button>
      )}
      <CancelAppointmentButton appointment={appointment} />
    </div>
  );
}

type OpenDialog = { kind: "request" } | { kind: "book"; moving: ClientAppointment | null };

export function AppointmentsTab() {
  const appointments = useAppointments();
  const meetingTypes = useMeetingTypes();
  const firmTimeZone = trpc.site.links.useQuery(undefined, { staleTime: Infinity }).data?.firmTimeZone;
  // Each dialog's code loads on first use and stays mounted so it can animate closed.
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [open, setOpen] = useState(false);
  const scheduleButton = useRef<HTMLButtonElement>(null);
  const show = (next: OpenDialog) => {
    setDialog(next);
    setOpen(true);
  };
  // One way in (the spec's Schedule New Appointment): the firm's free times to book, and from
  // there a request for another time; with nothing bookable online, the request at once.
  const schedule = () => show(meetingTypes.data?.length === 0 ? { kind: "request" } : { kind: "book", moving: null });

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">Appointments</h2>
        <Button ref={scheduleButton} variant="accent" onClick={schedule}>
          <CalendarPlus aria-hidden="true" />
          Schedule New Appointment
        </Button>
      </div>
      <Suspense fallback={null}>
        {dialog?.kind === "request" && <RequestAppointmentDialog open={open} onOpenChange={setOpen} returnFocusTo={scheduleButton} />}
        {dialog?.kind === "book" && (
          <BookingDialog
            open={open}
            onOpenChange={setOpen}
            moving={dialog.moving}
            onAskUs={dialog.moving ? undefined : () => show({ kind: "request" })}
          />
        )}
      </Suspense>
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h3>Upcoming Appointments</h3>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {appointments.isPending ? (
            <Spinner label="Loading appointments…" />
          ) : appointments.isError ? null : appointments.data.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">No appointments scheduled</p>
          ) : (
            <ul className="divide-y">
              {appointments.data.map((appointment) => (
                <li
                  key={appointment.id}
                  className="flex flex-col gap-2 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between sm:gap-6"
                >
                  <div className="grid min-w-0 gap-1.5">
                    <h4 className="font-medium break-words">{appointment.title}</h4>
                    {appointment.description && (
                      <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{appointment.description}</p>
                    )}
                    <p className="flex items-start gap-1.5 text-sm">
                      <CalendarDays aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                      <AppointmentTime appointment={appointment} firmTimeZone={firmTimeZone} />
                    </p>
                    {appointment.location && (
                      <p className="flex items-start gap-1.5 text-sm">
                        <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                        <span className="min-w-0 wrap-anywhere">
                          {MEETING_LOCATION_LABELS[appointment.location]}
                          {appointment.location_detail && `: ${appointment.location_detail}`}
                        </span>
                      </p>
                    )}
                    <AppointmentActions
                      appointment={appointment}
                      asOf={appointments.dataUpdatedAt}
                      onMove={(moving) => show({ kind: "book", moving })}
                    />
                  </div>
                  <Badge variant={appointment.status === "scheduled" ? "success" : "muted"}>{APPOINTMENT_STATUS_LABELS[appointment.status]}</Badge>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
