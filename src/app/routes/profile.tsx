import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { trpc } from "@/lib/trpc.ts";
import { takeReturnAfterGoogle } from "@/lib/session-ended.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import { AUTHENTICATION_FAILED } from "@server/domains/auth/messages.ts";

/**
 * Reads the one-time id the Google callback put in the URL fragment and removes it from the
 * address bar and history at once, so it never lingers where it could be copied or replayed.
 */
function takeSessionIdFromUrl(): string | null {
  const sessionId = new URLSearchParams(window.location.hash.slice(1)).get("session_id");
  if (window.location.hash) {
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  }
  return sessionId;
}

/** /profile: completes the Google sign-in (docs/decisions.md), then goes to the dashboard, or to the portal page the person came to sign in for. */
export function ProfilePage() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { status } = useCurrentUser();
  const completeSignIn = trpc.auth.profile.useMutation();
  // Refs survive StrictMode's second mount, so the fragment is read once and the code posted once.
  const sessionId = useRef<string | null | undefined>(undefined);
  const started = useRef(false);

  useEffect(() => {
    if (sessionId.current === undefined) sessionId.current = takeSessionIdFromUrl();
  }, []);

  useEffect(() => {
    if (status === "unknown" || started.current) return;
    started.current = true;
    if (status === "signed-in") {
      void navigate(takeReturnAfterGoogle(), { replace: true });
      return;
    }
    const fail = () => {
      toast.error(AUTHENTICATION_FAILED);
      void navigate("/", { replace: true });
    };
    if (!sessionId.current) {
      fail();
      return;
    }
    completeSignIn
      .mutateAsync({ session_id: sessionId.current })
      .then(async () => {
        // The current-user check (auth.session, and auth.me where used) must see the new cookie.
        await utils.auth.invalidate();
        await navigate(takeReturnAfterGoogle(), { replace: true });
      })
      .catch(fail);
  }, [status, completeSignIn, navigate, utils]);

  return (
    <>
      <title>Signing you in | Client Portal</title>
      <PageSpinner label="Signing you in…" />
    </>
  );
}
