import { KeyRound, ShieldCheck } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import type { SignInStep } from "@/lib/sign-in-step.ts";
import { trpc } from "@/lib/trpc.ts";
import type { TwoFactorSetup } from "@server/domains/profile/schemas.ts";
import { BackupCodes } from "./backup-codes.tsx";
import { TotpSetupForm } from "./totp-setup-form.tsx";

type SecondStepProps = {
  step: SignInStep;
  /** The sign-in is complete: the session cookie is set. */
  onSignedIn: () => void;
  /** Back to the password (a new sign-in). */
  onCancel: () => void;
};

/**
 * What a sign-in asks for after a right password: a code from the authenticator app (or a backup
 * code), or, for an account that must have a second factor and has none, setting one up first.
 * Shared by the Client Portal dialog, /admin and the Google sign-in's /two-factor page.
 */
export function SignInSecondStep({ step, onSignedIn, onCancel }: SecondStepProps) {
  return step.kind === "verify" ? (
    <CodeStep challenge={step.challenge} onSignedIn={onSignedIn} onCancel={onCancel} />
  ) : (
    <EnrolStep challenge={step.challenge} onSignedIn={onSignedIn} onCancel={onCancel} />
  );
}

function CodeStep({ challenge, onSignedIn, onCancel }: { challenge: string } & Omit<SecondStepProps, "step">) {
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  // The number pad for the app's 6 digits; a backup code (letters) asks for the full keyboard.
  const [backupCode, setBackupCode] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const verify = trpc.auth.loginTwoFactor.useMutation();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.trim() === "") {
      setProblem("Enter the code from your authenticator app");
      return;
    }
    setProblem(null);
    verify.mutate(
      { challenge, code: code.trim() },
      {
        onSuccess: onSignedIn,
        onError: (err) => {
          setProblem(errorDetail(err) ?? "The code could not be checked. Please try again.");
          setCode("");
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Two-factor sign-in">
      <div className="flex items-start gap-3">
        <span className="grid size-9 shrink-0 place-items-center rounded-full bg-accent-soft text-accent-soft-foreground">
          <ShieldCheck aria-hidden="true" className="size-4" />
        </span>
        <div className="grid gap-1">
          <h3 className="font-semibold">Two-factor sign-in</h3>
          <p className="text-sm text-muted-foreground">Enter the 6-digit code from your authenticator app, or one of your backup codes.</p>
        </div>
      </div>
      <FormField id="second-factor-code" label="Authentication code" hint="A backup code looks like abcde-fghij.">
        <Input
          autoFocus
          ref={codeInput}
          autoComplete="one-time-code"
          inputMode={backupCode ? "text" : "numeric"}
          autoCapitalize="none"
          spellCheck={false}
          maxLength={32}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </FormField>
      <Button
        variant="link"
        className="-mt-2 w-fit"
        onClick={() => {
          setBackupCode((on) => !on);
          codeInput.current?.focus();
        }}
      >
        {backupCode ? "Use a code from the app" : "Use a backup code"}
      </Button>
      <FormAlert message={problem} />
      <Button type="submit" disabled={verify.isPending}>
        {verify.isPending ? "Verifying..." : "Verify"}
      </Button>
      <Button variant="link" className="w-fit justify-self-center" onClick={onCancel}>
        Back to sign in
      </Button>
    </form>
  );
}

function EnrolStep({ challenge, onSignedIn, onCancel }: { challenge: string } & Omit<SecondStepProps, "step">) {
  const setUp = trpc.auth.enrolmentSetup.useMutation();
  const enable = trpc.auth.enrolmentEnable.useMutation();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  // One key per enrolment, however often React runs the effect (StrictMode runs it twice).
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    setUp.mutate(
      { challenge },
      {
        onSuccess: setSetup,
        onError: (err) => setProblem(errorDetail(err) ?? "Two-factor sign-in could not be set up. Please sign in again."),
      },
    );
  }, [challenge, setUp]);

  if (backupCodes) {
    return (
      <div className="grid gap-4">
        <p role="status" className="text-sm font-medium">
          Two-factor sign-in is on. You are signed in.
        </p>
        <BackupCodes codes={backupCodes} />
        <Button onClick={onSignedIn}>Continue</Button>
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      <div className="flex items-start gap-3">
        <span className="grid size-9 shrink-0 place-items-center rounded-full bg-accent-soft text-accent-soft-foreground">
          <KeyRound aria-hidden="true" className="size-4" />
        </span>
        <div className="grid gap-1">
          <h3 className="font-semibold">Set up two-factor sign-in</h3>
          <p className="text-sm text-muted-foreground">
            Your account needs a second factor: a code from an authenticator app, asked for at every sign-in.
          </p>
        </div>
      </div>
      {setup ? (
        <TotpSetupForm
          setup={setup}
          pending={enable.isPending}
          error={problem}
          submitLabel="Turn on and sign in"
          idPrefix="enrol"
          onSubmit={(code) =>
            enable.mutate(
              { challenge, code },
              {
                onSuccess: (result) => setBackupCodes(result.backup_codes),
                onError: (err) => setProblem(errorDetail(err) ?? "The code could not be checked. Please try again."),
              },
            )
          }
        />
      ) : problem ? (
        <FormAlert message={problem} />
      ) : (
        <Spinner label="Preparing your setup key…" className="w-full justify-center py-6" />
      )}
      <Button variant="link" className="w-fit justify-self-center" onClick={onCancel}>
        Back to sign in
      </Button>
    </div>
  );
}
