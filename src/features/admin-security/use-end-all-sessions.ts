import { trpc } from "@/lib/trpc.ts";

/** The owner's end of every session but their own (docs/safeguards.md, "Responding to an incident"). */
export function useEndAllSessions() {
  return trpc.admin.security.endAllSessions.useMutation();
}
