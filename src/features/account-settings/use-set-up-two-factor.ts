import { trpc } from "@/lib/trpc.ts";

/** A new key for the authenticator app (shown once); two-factor sign-in is on only after useEnableTwoFactor. */
export function useSetUpTwoFactor() {
  return trpc.account.setupTwoFactor.useMutation();
}
