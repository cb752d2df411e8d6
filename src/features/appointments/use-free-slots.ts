import { skipToken } from "@tanstack/react-query";
import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** Every free time of the bookable period, for a meeting type or for moving one of the client's appointments. */
export function useFreeSlots(input: { type: string } | { appointment: string } | null) {
  // Always fresh: a time shown as free should be free.
  const query = trpc.appointments.slots.useQuery(input ?? skipToken, { staleTime: 0 });
  useLoggedError(query.error, "free times");
  return query;
}
