import { trpc } from "@/lib/trpc.ts";

/** A new verification link by email; the session check is refetched, as the user may have verified meanwhile. */
export function useResendVerification() {
  const utils = trpc.useUtils();
  return trpc.auth.resendVerification.useMutation({ onSettled: () => utils.auth.session.invalidate() });
}
