import type { AppointmentStatus } from "@server/domains/appointments/schemas.ts";

/** How the statuses (docs/decisions.md, Appointments) read in both portals. */
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  requested: "Requested",
  scheduled: "Scheduled",
  completed: "Completed",
  cancelled: "Cancelled",
};
