import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** The meeting types a client can book. */
export function useMeetingTypes() {
  const query = trpc.appointments.meetingTypes.useQuery();
  useLoggedError(query.error, "meeting types");
  return query;
}
