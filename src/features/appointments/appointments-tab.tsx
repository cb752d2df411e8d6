import { lazy, Suspense, useState } from "react";
import { CalendarDays, CalendarPlus } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { APPOINTMENT_STATUS_LABELS } from "@/lib/appointment-status.ts";
import { formatDateTimeWithZone } from "@/lib/format.ts";
import { trpc } from "@/lib/trpc.ts";
import { windowOf, zoneName } from "@server/routers/appointments/firm-clock.ts";
import { PREFERRED_TIME_OPTIONS } from "@server/routers/consultation/schemas.ts";
import { useAppointments } from "./use-appointments.ts";

const RequestAppointmentDialog = lazy(async () => ({
  default: (await import("./request-appointment-dialog.tsx")).RequestAppointmentDialog,
}));

/**
 * A requested appointment shows the window the client asked for ("Afternoon (12 PM-5 PM)"), on
 * the firm's clock, until the firm sets a time; a set time shows in the viewer's zone, named.
 */
function AppointmentTime({ date, requested, firmTimeZone }: { date: Date; requested: boolean; firmTimeZone: string | undefined }) {
  const window = requested && firmTimeZone ? windowOf(date, firmTimeZone) : null;
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
  return <time dateTime={date.toISOString()}>{formatDateTimeWithZone(date)}</time>;
}

export function AppointmentsTab() {
  const appointments = useAppointments();
  const firmTimeZone = trpc.site.links.useQuery(undefined, { staleTime: Infinity }).data?.firmTimeZone;
  const [dialogOpen, setDialogOpen] = useState(false);
  // The dialog's code loads on first use and stays mounted so it can animate closed.
  const [dialogLoaded, setDialogLoaded] = useState(false);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">Appointments</h2>
        <Button
          variant="accent"
          onClick={() => {
            setDialogLoaded(true);
            setDialogOpen(true);
          }}
        >
          <CalendarPlus aria-hidden="true" />
          Schedule New Appointment
        </Button>
      </div>
      {dialogLoaded && (
        <Suspense fallback={null}>
          <RequestAppointmentDialog open={dialogOpen} onOpenChange={setDialogOpen} />
        </Suspense>
      )}
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
                  <div className="grid min-w-0 gap-1">
                    <h4 className="font-medium break-words">{appointment.title}</h4>
                    {appointment.description && (
                      <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{appointment.description}</p>
                    )}
                    <p className="flex items-start gap-1.5 text-sm">
                      <CalendarDays aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                      <AppointmentTime
                        date={appointment.appointment_date}
                        requested={appointment.status === "requested"}
                        firmTimeZone={firmTimeZone}
                      />
                    </p>
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
