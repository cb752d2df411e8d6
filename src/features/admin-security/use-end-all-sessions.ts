import { trpc } from "@/lib/trpc.ts";

/** The owner's end of every session but their own (docs/safeguards.md, "314.4(h) Incident response plan, and 314.4(j) notifying the FTC"). */
export function useEndAllSessions() {
  return trpc.admin.security.endAllSessions.useMutation();
}
