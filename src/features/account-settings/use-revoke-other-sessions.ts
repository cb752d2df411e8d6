import { trpc } from "@/lib/trpc.ts";

export function useRevokeOtherSessions() {
  const utils = trpc.useUtils();
  return trpc.account.revokeOtherSessions.useMutation({ onSuccess: () => utils.account.sessions.invalidate() });
}
