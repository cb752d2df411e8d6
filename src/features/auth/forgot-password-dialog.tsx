import { type FormEvent, useEffect, useReducer, useRef, useState } from "react";
import { ArrowLeft, MailCheck } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { PasswordStrengthMeter } from "@/components/ui/password-strength-meter.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { errorOf, focusControl, type FormProblem, problemFor, serverProblem } from "@/lib/form-problem.ts";
import { validateForgotPassword, validateResetPassword } from "./auth-validation.ts";
import { forgotPasswordReducer, initialForgotPasswordState } from "./forgot-password-flow.ts";
import { PASSWORD_RESET_DONE } from "./notices.ts";
import { useCheckResetToken, useForgotPassword, useResetPassword } from "./use-password-reset.ts";

const SPENT_LINK = "This reset link has expired or was already used. Request a new link below.";

type ForgotPasswordDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onBackToLogin: () => void;
  /** A token from a reset link (`/?reset_token=...`): the dialog opens at the reset step with it, and checks it. */
  initialToken?: string;
  /** After a successful reset, with what the user signs in with (username or email). */
  onResetDone: (login: string) => void;
};

/** Remount it (change its key) for a fresh start; the steps live in forgot-password-flow.ts. */
export function ForgotPasswordDialog({ open, onOpenChange, onBackToLogin, initialToken, onResetDone }: ForgotPasswordDialogProps) {
  const [state, dispatch] = useReducer(
    forgotPasswordReducer,
    initialToken ? forgotPasswordReducer(initialForgotPasswordState, { type: "openWithToken", token: initialToken }) : initialForgotPasswordState,
  );
  const [email, setEmail] = useState(state.email);
  const [typedToken, setTypedToken] = useState(state.token);
  const [problem, setProblem] = useState<string | null>(null);
  const forgot = useForgotPassword();
  const linkSpent = useSpentLink(initialToken);

  function sendLink(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateForgotPassword({ email });
    setProblem(message);
    if (message) return;
    forgot.mutate(
      { email: email.trim() },
      {
        onSuccess: () => {
          toast.success("Password reset instructions sent to your email!");
          dispatch({ type: "emailSent", email: email.trim() });
        },
        onError: (err) => setProblem(errorDetail(err) ?? "Failed to send reset email"),
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        {state.step === "request" && (
          <>
            <DialogHeader>
              <DialogTitle>Forgot Password</DialogTitle>
              <DialogDescription>Enter your email address and we'll send you a link to reset your password.</DialogDescription>
            </DialogHeader>
            <form noValidate onSubmit={sendLink} className="grid gap-4">
              <FormField id="forgot-email" label="Email">
                <Input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
              </FormField>
              <FormAlert message={problem} />
              <Button type="submit" variant="accent" disabled={forgot.isPending}>
                {forgot.isPending ? "Sending..." : "Send Reset Link"}
              </Button>
              <Button variant="ghost" onClick={onBackToLogin}>
                <ArrowLeft />
                Back to Login
              </Button>
            </form>
          </>
        )}

        {state.step === "sent" && (
          <>
            <DialogHeader>
              <span className="mb-2 inline-flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-soft-foreground">
                <MailCheck className="size-5" />
              </span>
              <DialogTitle>Check Your Email</DialogTitle>
              <DialogDescription>
                If an account uses <strong className="font-semibold break-all text-foreground">{state.email || "that address"}</strong>, we sent it a
                link to reset the password.
              </DialogDescription>
            </DialogHeader>
            <p className="text-sm text-muted-foreground">Don't see it? Check your spam folder.</p>
            <form
              noValidate
              className="grid gap-3 rounded-lg border bg-muted/50 p-4"
              onSubmit={(event) => {
                event.preventDefault();
                dispatch({ type: "continueToReset", token: typedToken });
              }}
            >
              <FormField id="sent-token" label="Have a reset token? Enter it here">
                <Input autoComplete="off" spellCheck={false} value={typedToken} onChange={(e) => setTypedToken(e.target.value)} />
              </FormField>
              <Button type="submit" disabled={typedToken.trim() === ""}>
                Continue to Reset Password
              </Button>
            </form>
            <Button
              variant="ghost"
              onClick={() => {
                setEmail("");
                setTypedToken("");
                setProblem(null);
                dispatch({ type: "tryDifferentEmail" });
              }}
            >
              Try Different Email
            </Button>
          </>
        )}

        {state.step === "reset" && (
          <ResetStep
            token={state.token}
            linkSpent={linkSpent && state.token === initialToken?.trim()}
            onBack={() => {
              setTypedToken(state.token);
              dispatch({ type: "back" });
            }}
            onNewLink={() => {
              setTypedToken("");
              dispatch({ type: "startOver" });
            }}
            onDone={(login) => {
              dispatch({ type: "resetDone" });
              onResetDone(login);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Asks once whether the link's token still works, so a spent link says so before any typing. */
function useSpentLink(token: string | undefined): boolean {
  const check = useCheckResetToken();
  const asked = useRef(false);
  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    check.mutate({ token: token.trim() });
  }, [token, check]);
  return check.data?.valid === false;
}

type ResetField = "token" | "newPassword" | "confirmPassword";
const RESET_IDS: Record<ResetField, string> = {
  token: "reset-token",
  newPassword: "reset-new-password",
  confirmPassword: "reset-confirm-password",
};
const RESET_FIELDS: Partial<Record<ResetField, RegExp>> = { token: /token/i, confirmPassword: /do not match/i, newPassword: /password/i };

type ResetStepProps = {
  token: string;
  linkSpent: boolean;
  onBack: () => void;
  onNewLink: () => void;
  onDone: (login: string) => void;
};

function ResetStep({ token: initialToken, linkSpent, onBack, onNewLink, onDone }: ResetStepProps) {
  const [form, setForm] = useState({ token: initialToken, newPassword: "", confirmPassword: "" });
  const [problem, setProblem] = useState<FormProblem<ResetField> | null>(null);
  const reset = useResetPassword();
  const shown = problem ?? (linkSpent && form.token === initialToken ? { message: SPENT_LINK, field: "token" as const } : null);

  const show = (found: FormProblem<ResetField>) => {
    setProblem(found);
    if (found.field) focusControl(RESET_IDS[found.field]);
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateResetPassword(form);
    if (message) {
      const blank = (Object.keys(RESET_IDS) as ResetField[]).find((key) => form[key].trim() === "");
      show(blank && !/match|least/.test(message) ? { message, field: blank } : problemFor(message, RESET_FIELDS));
      return;
    }
    setProblem(null);
    reset.mutate(
      { token: form.token.trim(), new_password: form.newPassword },
      {
        onSuccess: (result) => {
          toast.success(PASSWORD_RESET_DONE, { id: "password-reset" });
          onDone(result.login);
        },
        onError: (err) => show(serverProblem(err, "Failed to reset password", RESET_FIELDS)),
      },
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Reset Password</DialogTitle>
        <DialogDescription>Choose a new password of at least 6 characters. Common passwords are refused.</DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={submit} className="grid gap-4">
        <FormField id={RESET_IDS.token} label="Reset Token" error={errorOf(shown, "token")}>
          <Input
            autoComplete="off"
            spellCheck={false}
            value={form.token}
            onChange={(e) => {
              setProblem(null);
              setForm({ ...form, token: e.target.value });
            }}
          />
        </FormField>
        {errorOf(shown, "token") && (
          <Button variant="outline" onClick={onNewLink}>
            Request a New Link
          </Button>
        )}
        <FormField id={RESET_IDS.newPassword} label="New Password" error={errorOf(shown, "newPassword")}>
          <PasswordInput autoComplete="new-password" value={form.newPassword} onChange={(e) => setForm({ ...form, newPassword: e.target.value })} />
        </FormField>
        <PasswordStrengthMeter password={form.newPassword} className="-mt-2" />
        <FormField id={RESET_IDS.confirmPassword} label="Confirm New Password" error={errorOf(shown, "confirmPassword")}>
          <PasswordInput
            autoComplete="new-password"
            value={form.confirmPassword}
            onChange={(e) => setForm({ ...form, confirmPassword: e.target.value })}
          />
        </FormField>
        <FormAlert message={shown && !shown.field ? shown.message : null} />
        <Button type="submit" variant="accent" disabled={reset.isPending}>
          {reset.isPending ? "Resetting..." : "Reset Password"}
        </Button>
        <Button variant="ghost" onClick={onBack}>
          <ArrowLeft />
          Back
        </Button>
      </form>
    </>
  );
}
