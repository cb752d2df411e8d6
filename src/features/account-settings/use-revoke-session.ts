import { trpc } from "@/lib/trpc.ts";

export function useRevokeSession() {
  const utils = trpc.useUtils();
  return trpc.account.revokeSession.useMutation({ onSuccess: () => utils.account.sessions.invalidate() });
}
