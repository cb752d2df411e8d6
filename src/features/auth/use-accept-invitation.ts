import { trpc } from "@/lib/trpc.ts";

/** Whom an invitation's link is for; a mutation so the token stays out of URLs and logs. */
export function useCheckInvitation() {
  return trpc.auth.checkInvitation.useMutation();
}

/** Accepting signs in: the session check is refetched so every page sees the new client. */
export function useAcceptInvitation() {
  const utils = trpc.useUtils();
  return trpc.auth.acceptInvitation.useMutation({ onSuccess: () => utils.auth.session.invalidate() });
}
