import { trpc } from "@/lib/trpc.ts";

/** The signed-in client's organizers. */
export function useOwnOrganizers() {
  return trpc.organizers.list.useQuery(undefined, { retry: false });
}

/** One organizer with its questions and answers so far. */
export function useOwnOrganizer(id: string) {
  return trpc.organizers.get.useQuery({ id }, { retry: false, refetchOnWindowFocus: false });
}
