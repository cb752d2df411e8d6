import { type FormEvent, useReducer, useState } from "react";
import { ArrowLeft, MailCheck } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { validateForgotPassword, validateResetPassword } from "./auth-validation.ts";
import { forgotPasswordReducer, initialForgotPasswordState } from "./forgot-password-flow.ts";
import { useForgotPassword, useResetPassword } from "./use-password-reset.ts";

type ForgotPasswordDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onBackToLogin: () => void;
  /** A token from a reset link (`/?reset_token=...`): the dialog opens at the reset step with it. */
  initialToken?: string;
};

/** Remount it (change its key) for a fresh start; the steps live in forgot-password-flow.ts. */
export function ForgotPasswordDialog({ open, onOpenChange, onBackToLogin, initialToken }: ForgotPasswordDialogProps) {
  const [state, dispatch] = useReducer(
    forgotPasswordReducer,
    initialToken ? forgotPasswordReducer(initialForgotPasswordState, { type: "openWithToken", token: initialToken }) : initialForgotPasswordState,
  );
  const [email, setEmail] = useState(state.email);
  const [typedToken, setTypedToken] = useState(state.token);
  const [problem, setProblem] = useState<string | null>(null);
  const forgot = useForgotPassword();

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
        onError: (err) => toast.error(errorDetail(err) ?? "Failed to send reset email"),
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
              <p role="alert" className="text-sm font-medium text-destructive empty:hidden">
                {problem}
              </p>
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
                If an account uses <strong className="font-semibold break-all text-foreground">{state.email || "that address"}</strong>, we
                sent it a link to reset the password.
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
            onBack={() => {
              setTypedToken(state.token);
              dispatch({ type: "back" });
            }}
            onDone={() => {
              dispatch({ type: "resetDone" });
              onOpenChange(false);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ResetStep({ token: initialToken, onBack, onDone }: { token: string; onBack: () => void; onDone: () => void }) {
  const [form, setForm] = useState({ token: initialToken, newPassword: "", confirmPassword: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const reset = useResetPassword();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateResetPassword(form);
    setProblem(message);
    if (message) return;
    reset.mutate(
      { token: form.token.trim(), new_password: form.newPassword },
      {
        onSuccess: () => {
          toast.success("Password reset successfully! You can now login with your new password.");
          onDone();
        },
        onError: (err) => toast.error(errorDetail(err) ?? "Failed to reset password"),
      },
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Reset Password</DialogTitle>
        <DialogDescription>Choose a new password of at least 6 characters.</DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={submit} className="grid gap-4">
        <FormField id="reset-token" label="Reset Token">
          <Input autoComplete="off" spellCheck={false} value={form.token} onChange={(e) => setForm({ ...form, token: e.target.value })} />
        </FormField>
        <FormField id="reset-new-password" label="New Password">
          <Input
            type="password"
            autoComplete="new-password"
            value={form.newPassword}
            onChange={(e) => setForm({ ...form, newPassword: e.target.value })}
          />
        </FormField>
        <FormField id="reset-confirm-password" label="Confirm New Password">
          <Input
            type="password"
            autoComplete="new-password"
            value={form.confirmPassword}
            onChange={(e) => setForm({ ...form, confirmPassword: e.target.value })}
          />
        </FormField>
        <p role="alert" className="text-sm font-medium text-destructive empty:hidden">
          {problem}
        </p>
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
