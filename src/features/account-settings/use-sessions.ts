import { trpc } from "@/lib/trpc.ts";

export function useSessions() {
  return trpc.account.sessions.useQuery();
}
