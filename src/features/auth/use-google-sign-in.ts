import { trpc } from "@/lib/trpc.ts";

/**
 * "Continue with Google": whether the server has it configured (the button is shown only then),
 * and the full page navigation to the server's start route.
 */
export function useGoogleSignIn() {
  const status = trpc.auth.googleStatus.useQuery(undefined, { staleTime: Infinity });
  return {
    configured: status.data?.configured === true,
    start: () => window.location.assign("/api/auth/google"),
    /** From an invitation's form: the server lets only the invited address's Google account accept it. */
    startForInvitation: (token: string) => window.location.assign(`/api/auth/google?${new URLSearchParams({ invite: token })}`),
  };
}
