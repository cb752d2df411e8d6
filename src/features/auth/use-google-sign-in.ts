import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export const GOOGLE_NOT_CONFIGURED = "Google sign-in is not configured.";

/** "Continue with Google": a full page navigation to the server's start route, when it is configured. */
export function useGoogleSignIn() {
  const status = trpc.auth.googleStatus.useQuery(undefined, { staleTime: Infinity });
  return async () => {
    const configured = status.data?.configured ?? (await status.refetch()).data?.configured;
    if (!configured) {
      toast.error(GOOGLE_NOT_CONFIGURED);
      return;
    }
    window.location.assign("/api/auth/google");
  };
}
