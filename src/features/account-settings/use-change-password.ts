import { trpc } from "@/lib/trpc.ts";

/** Changes the password; every other session ends, so the list of sessions changes too. */
export function useChangePassword() {
  const utils = trpc.useUtils();
  return trpc.account.changePassword.useMutation({ onSuccess: () => utils.account.sessions.invalidate() });
}
