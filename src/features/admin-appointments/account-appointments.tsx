import { useState } from "react";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { APPOINTMENT_STATUS_LABELS } from "@/lib/appointment-status.ts";
import { formatDateTimeWithZone } from "@/lib/format.ts";
import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import type { AdminAppointment } from "@server/domains/admin/schemas.ts";
import { APPOINTMENT_STATUSES, type AppointmentStatus } from "@server/domains/appointments/schemas.ts";
import { RescheduleDialog } from "./reschedule-dialog.tsx";
import { useUpdateAppointment } from "./use-update-appointment.ts";

/** A client's record holds all of its appointments: a firm's client has a handful a year, never pages of them. */
const RECORD_LIMIT = 200;

/** A client's appointments on their record: upcoming (soonest first) and past (latest first), each time with its zone named. */
export function AccountAppointments({ accountId }: { accountId: string }) {
  const appointments = trpc.admin.appointments.list.useQuery({ account_id: accountId, limit: RECORD_LIMIT }, { retry: false });
  useAdminLoadFailure(appointments);
  // Upcoming or past as of opening the record; a change of status or time refetches, not re-sorts.
  const [now] = useState(() => Date.now());
  const items = appointments.data?.items ?? [];
  const at = (a: AdminAppointment) => new Date(a.appointment_date).getTime();
  const upcoming = items.filter((a) => at(a) >= now).sort((a, b) => at(a) - at(b));
  const past = items.filter((a) => at(a) < now).sort((a, b) => at(b) - at(a));

  return (
    <section aria-labelledby="account-appointments-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="account-appointments-heading" className="text-xl font-semibold">
          Appointments
        </h2>
        <p className="text-sm text-muted-foreground">Times are shown in your time zone.</p>
      </div>
      {appointments.isError ? (
        <LoadError message="Failed to load appointments" onRetry={() => void appointments.refetch()} isRetrying={appointments.isFetching} />
      ) : appointments.isPending ? (
        <Spinner label="Loading appointments…" className="w-full justify-center py-8" />
      ) : (
        <>
          <AppointmentGroup heading="Upcoming" items={upcoming} empty="No upcoming appointments." />
          <AppointmentGroup heading="Past" items={past} empty="No past appointments." />
        </>
      )}
    </section>
  );
}

function AppointmentGroup({ heading, items, empty }: { heading: string; items: AdminAppointment[]; empty: string }) {
  const update = useUpdateAppointment();
  return (
    <div className="grid gap-2">
      <h3 className="text-base font-semibold">{heading}</h3>
      {items.length === 0 ? (
        <p className="rounded-xl border bg-card px-4 py-6 text-center text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul aria-label={`${heading} appointments`} className="divide-y overflow-hidden rounded-xl border bg-card">
          {items.map((a) => (
            <li key={a.id} className="grid gap-3 px-4 py-3 sm:grid-cols-[1fr_auto] sm:items-center">
              <div className="grid min-w-0 gap-0.5">
                <p className="font-medium wrap-anywhere">{a.title}</p>
                <time dateTime={new Date(a.appointment_date).toISOString()} className="text-sm tabular-nums">
                  {formatDateTimeWithZone(a.appointment_date)}
                </time>
                {a.description && <p className="line-clamp-2 text-sm wrap-anywhere text-muted-foreground">{a.description}</p>}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Select
                  aria-label={`Status of ${a.title}`}
                  value={a.status}
                  disabled={update.isPending}
                  onChange={(event) => update.mutate({ id: a.id, status: event.target.value as AppointmentStatus })}
                  wrapperClassName="w-40"
                  className="h-9 py-1"
                >
                  {APPOINTMENT_STATUSES.map((value) => (
                    <option key={value} value={value}>
                      {APPOINTMENT_STATUS_LABELS[value]}
                    </option>
                  ))}
                </Select>
                <RescheduleDialog appointment={a} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
