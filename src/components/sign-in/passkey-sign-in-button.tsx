import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { Fingerprint } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import { PASSKEY_SIGN_IN_FAILED } from "@server/domains/auth/messages.ts";

/** The browser's own refusal when the person closes its passkey prompt or has none for this site. */
export function passkeyPromptDismissed(err: unknown): boolean {
  const name = err instanceof Error ? err.name : "";
  return name === "NotAllowedError" || name === "AbortError";
}

type PasskeySignInButtonProps = {
  portal: "client" | "admin";
  onSignedIn: () => void;
  onProblem: (message: string | null) => void;
};

/**
 * "Sign in with a passkey": the browser offers the passkeys it holds for this site (no username is
 * typed), and one with the device's lock (PIN, fingerprint, face) signs in on its own. Not shown
 * by browsers without WebAuthn.
 */
export function PasskeySignInButton({ portal, onSignedIn, onProblem }: PasskeySignInButtonProps) {
  const [supported] = useState(() => typeof window !== "undefined" && browserSupportsWebAuthn());
  const options = trpc.auth.passkeyLoginOptions.useMutation();
  const signIn = trpc.auth.passkeyLogin.useMutation();
  const [prompting, setPrompting] = useState(false);
  if (!supported) return null;

  async function start() {
    onProblem(null);
    setPrompting(true);
    try {
      const optionsJSON = await options.mutateAsync({ portal });
      const response = await startAuthentication({ optionsJSON });
      await signIn.mutateAsync({ response });
      onSignedIn();
    } catch (err) {
      onProblem(passkeyPromptDismissed(err) ? "Passkey sign-in was cancelled." : (errorDetail(err) ?? PASSKEY_SIGN_IN_FAILED));
    } finally {
      setPrompting(false);
    }
  }

  return (
    <Button variant="outline" disabled={prompting} onClick={() => void start()}>
      <Fingerprint aria-hidden="true" />
      {prompting ? "Waiting for your passkey..." : "Sign in with a passkey"}
    </Button>
  );
}
