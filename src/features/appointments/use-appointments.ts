import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

export function useAppointments() {
  const query = trpc.appointments.list.useQuery();
  useLoggedError(query.error, "appointments");
  return query;
}
