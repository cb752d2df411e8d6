import { trpc } from "@/lib/trpc.ts";

export function useForgotPassword() {
  return trpc.auth.forgotPassword.useMutation();
}

/** A reset ends every session of that user, so the session check is refetched. */
export function useResetPassword() {
  const utils = trpc.useUtils();
  return trpc.auth.resetPassword.useMutation({ onSuccess: () => utils.auth.session.invalidate() });
}

/** Whether a reset link's token still works; spends nothing. */
export function useCheckResetToken() {
  return trpc.auth.checkResetToken.useMutation();
}
