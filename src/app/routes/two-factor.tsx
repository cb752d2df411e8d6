import { useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { SignInSecondStep } from "@/components/sign-in/second-step.tsx";
import { Card, CardContent } from "@/components/ui/card.tsx";
import { takeReturnAfterGoogle } from "@/lib/session-ended.ts";
import type { SignInStep } from "@/lib/sign-in-step.ts";
import { trpc } from "@/lib/trpc.ts";

/**
 * Reads the challenge the Google callback put in the URL fragment and removes it from the address
 * bar and history at once, as /profile does with its one-time code.
 */
function takeStepFromUrl(): SignInStep | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  const challenge = params.get("challenge");
  const kind = params.get("step");
  return challenge && (kind === "verify" || kind === "enrol") ? { kind, challenge } : null;
}

/** /two-factor: the second step of a Google sign-in, for an account with a second factor (or one it must set up). */
export function TwoFactorPage() {
  const [step] = useState(takeStepFromUrl);
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  if (!step) return <Navigate to="/" replace />;

  return (
    <main className="grid min-h-dvh place-items-center bg-muted/50 px-4 py-12">
      <title>Two-factor sign-in | Client Portal</title>
      <h1 className="sr-only">Finish signing in</h1>
      <Card className="w-full max-w-md shadow-sm">
        <CardContent>
          <SignInSecondStep
            step={step}
            onSignedIn={() => void utils.auth.invalidate().then(() => navigate(takeReturnAfterGoogle(), { replace: true }))}
            onCancel={() => void navigate("/", { replace: true })}
          />
        </CardContent>
      </Card>
    </main>
  );
}
