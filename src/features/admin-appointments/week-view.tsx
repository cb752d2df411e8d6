import { useState } from "react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { APPOINTMENT_STATUS_LABELS } from "@/lib/appointment-status.ts";
import { cn } from "@/lib/cn.ts";
import { trpc } from "@/lib/trpc.ts";
import type { AdminAppointment } from "@server/domains/admin/schemas.ts";
import { addDays, genericZoneName, isoWeekday, localDate, wallTimeToInstant } from "@server/domains/appointments/firm-clock.ts";
import { useAppointmentCalendar } from "./use-appointment-calendar.ts";

/** The Monday of the current week on the firm's calendar. */
function currentMonday(timeZone: string): string {
  const today = localDate(new Date(), timeZone);
  return addDays(today, 1 - isoWeekday(today));
}

/** One week of bookings, Monday to Sunday on the firm's clock (where its opening hours are). */
export function WeekView() {
  const firmTimeZone = trpc.site.links.useQuery(undefined, { staleTime: Infinity }).data?.firmTimeZone;
  if (!firmTimeZone) return <Spinner label="Loading the week…" className="w-full justify-center py-10" />;
  return <Week timeZone={firmTimeZone} />;
}

function Week({ timeZone }: { timeZone: string }) {
  const [monday, setMonday] = useState(() => currentMonday(timeZone));
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const range = { from: wallTimeToInstant(monday, 0, timeZone), to: wallTimeToInstant(addDays(monday, 7), 0, timeZone) };
  const calendar = useAppointmentCalendar(range);
  const byDay = new Map<string, AdminAppointment[]>();
  for (const appointment of calendar.data ?? []) {
    const day = localDate(appointment.appointment_date, timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), appointment]);
  }
  const noon = (day: string) => wallTimeToInstant(day, 12 * 60, timeZone);
  const dayFormat = new Intl.DateTimeFormat(undefined, { timeZone, weekday: "short", month: "short", day: "numeric" });
  const weekFormat = new Intl.DateTimeFormat(undefined, { timeZone, month: "long", day: "numeric", year: "numeric" });
  const timeFormat = new Intl.DateTimeFormat(undefined, { timeZone, hour: "numeric", minute: "2-digit" });

  return (
    <section aria-labelledby="week-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h3 id="week-heading" className="text-lg font-semibold" aria-live="polite">
            Week of {weekFormat.format(noon(monday))}
          </h3>
          <p className="text-sm text-muted-foreground">
            Times in {genericZoneName(timeZone)} ({timeZone}), the firm&apos;s clock.
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Button variant="outline" size="icon-sm" aria-label="Previous week" onClick={() => setMonday(addDays(monday, -7))}>
            <ChevronLeft aria-hidden="true" />
          </Button>
          <Button variant="outline" size="sm" onClick={() => setMonday(currentMonday(timeZone))}>
            This week
          </Button>
          <Button variant="outline" size="icon-sm" aria-label="Next week" onClick={() => setMonday(addDays(monday, 7))}>
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
      {calendar.isError ? (
        <LoadError message="Failed to load the week" onRetry={() => void calendar.refetch()} isRetrying={calendar.isFetching} />
      ) : calendar.isPending ? (
        <Spinner label="Loading the week…" className="w-full justify-center py-10" />
      ) : (
        <ol className={cn("grid gap-3 lg:grid-cols-7", calendar.isFetching && "opacity-70")} aria-label="Days of the week">
          {days.map((day) => {
            const appointments = byDay.get(day) ?? [];
            return (
              <li key={day} className="grid content-start gap-2 rounded-lg bg-muted/60 p-2">
                <h4 className="px-1 text-sm font-medium">
                  <time dateTime={day}>{dayFormat.format(noon(day))}</time>
                </h4>
                {appointments.length === 0 ? (
                  <p className="px-1 text-xs text-muted-foreground">No appointments</p>
                ) : (
                  <ul className="grid gap-2">
                    {appointments.map((appointment) => (
                      <li key={appointment.id} className="grid gap-1 rounded-md border bg-card p-2 text-sm">
                        <time dateTime={appointment.appointment_date.toISOString()} className="font-medium tabular-nums">
                          {appointment.ends_at
                            ? timeFormat.formatRange(appointment.appointment_date, appointment.ends_at)
                            : timeFormat.format(appointment.appointment_date)}
                        </time>
                        <span className="wrap-anywhere">{appointment.user_name}</span>
                        <span className="wrap-anywhere text-muted-foreground">{appointment.title}</span>
                        <Badge variant={appointment.status === "scheduled" ? "success" : "muted"}>
                          {APPOINTMENT_STATUS_LABELS[appointment.status]}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
