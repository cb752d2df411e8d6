import { keepPreviousData } from "@tanstack/react-query";
import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

/** The appointments starting in [from, to): one week of the week view. */
export function useAppointmentCalendar(range: { from: Date; to: Date }) {
  const query = trpc.admin.appointments.calendar.useQuery(range, { placeholderData: keepPreviousData, retry: false });
  useAdminLoadFailure(query);
  return query;
}
