import { lazy, Suspense, useState } from "react";
import { CalendarDays, CalendarPlus } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { APPOINTMENT_STATUS_LABELS } from "@/lib/appointment-status.ts";
import { formatDateTime } from "@/lib/format.ts";
import { useAppointments } from "./use-appointments.ts";

const RequestAppointmentDialog = lazy(async () => ({
  default: (await import("./request-appointment-dialog.tsx")).RequestAppointmentDialog,
}));


export function AppointmentsTab() {
  const appointments = useAppointments();
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
                <li key={appointment.id} className="flex flex-col gap-2 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between sm:gap-6">
                  <div className="grid min-w-0 gap-1">
                    <h4 className="font-medium break-words">{appointment.title}</h4>
                    {appointment.description && (
                      <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{appointment.description}</p>
                    )}
                    <p className="flex items-center gap-1.5 text-sm">
                      <CalendarDays aria-hidden="true" className="size-4 text-muted-foreground" />
                      <time dateTime={appointment.appointment_date.toISOString()}>{formatDateTime(appointment.appointment_date)}</time>
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
