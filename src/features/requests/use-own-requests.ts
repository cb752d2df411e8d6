import { trpc } from "@/lib/trpc.ts";

/** The signed-in client's document requests, open ones first. */
export function useOwnRequests() {
  return trpc.requests.list.useQuery(undefined, { retry: false });
}
