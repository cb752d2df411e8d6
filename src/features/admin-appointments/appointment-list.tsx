import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { Select } from "@/components/ui/select.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDateTimeWithZone } from "@/lib/format.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import type { AdminAppointment } from "@server/domains/admin/schemas.ts";
import { APPOINTMENT_STATUSES, type AppointmentStatus } from "@server/domains/appointments/schemas.ts";
import { APPOINTMENT_STATUS_LABELS } from "@/lib/appointment-status.ts";
import { NewAppointmentDialog } from "./new-appointment-dialog.tsx";
import { RescheduleDialog } from "./reschedule-dialog.tsx";
import { useAdminAppointments } from "./use-admin-appointments.ts";
import { useUpdateAppointment } from "./use-update-appointment.ts";

/** Every client's appointments, searchable and paged, with the status and reschedule controls. */
export function AppointmentList() {
  const paging = useServerPaging();
  const appointments = useAdminAppointments(paging);
  const update = useUpdateAppointment();

  const columns: DataTableColumn<AdminAppointment>[] = [
    {
      header: "Client",
      cell: (a) => (
        <div className="sm:min-w-32 sm:max-w-56">
          <TruncatedText text={a.user_name} className="font-medium" />
          <TruncatedText text={a.user_email} className="text-muted-foreground" />
        </div>
      ),
    },
    {
      header: "Appointment",
      card: "title",
      cell: (a) => (
        <div className="min-w-40 sm:max-w-72">
          <TruncatedText text={a.title} className="font-medium" />
          {a.description && <p className="line-clamp-2 wrap-anywhere text-muted-foreground">{a.description}</p>}
        </div>
      ),
    },
    {
      header: "Date and time",
      className: "whitespace-nowrap tabular-nums",
      cell: (a) => <time dateTime={new Date(a.appointment_date).toISOString()}>{formatDateTimeWithZone(a.appointment_date)}</time>,
    },
    {
      header: "Status",
      cell: (a) => (
        <Select
          aria-label={`Status of ${a.title} for ${a.user_name}`}
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
      ),
    },
    { header: "Actions", className: "text-right", card: "actions", cell: (a) => <RescheduleDialog appointment={a} /> },
  ];

  return (
    <DataTable
      caption="Appointments"
      searchLabel="Search appointments by client or title"
      columns={columns}
      query={appointments}
      rowKey={(a) => a.id}
      paging={paging}
      emptyText={paging.input.q ? "No appointments match your search." : "No appointments yet."}
      toolbar={<NewAppointmentDialog />}
    />
  );
}
