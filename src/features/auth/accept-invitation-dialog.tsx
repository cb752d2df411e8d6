import { type FormEvent, useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { SignInSecondStep } from "@/components/sign-in/second-step.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { errorOf, focusControl, type FormProblem, problemFor, serverProblem } from "@/lib/form-problem.ts";
import { secondStepOf, type SignInStep } from "@/lib/sign-in-step.ts";
import { trpc } from "@/lib/trpc.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import type { InvitationPeek } from "@server/domains/invitations/schemas.ts";
import { FILL_ALL_FIELDS, validateRegister } from "./auth-validation.ts";
import { GoogleGlyph } from "./google-glyph.tsx";
import { useAcceptInvitation, useCheckInvitation } from "./use-accept-invitation.ts";
import { useGoogleSignIn } from "./use-google-sign-in.ts";
import { NewPasswordFields, OrDivider } from "./new-password-fields.tsx";

type AcceptInvitationDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  token: string;
  /** Why the visitor is back here (a Google account of another address), above the form. */
  notice?: string;
  /** The link no longer works and the visitor may have an account: the Client Portal's login. */
  onLogin: () => void;
};

const CHECK_FAILED = "This invitation could not be opened right now. Please open the link again in a moment.";

/** The landing page's form for `/?invite=<token>`: the invited client chooses a username and password, or continues with Google. */
export function AcceptInvitationDialog({ open, onOpenChange, token, notice, onLogin }: AcceptInvitationDialogProps) {
  const check = useCheckInvitation();
  const { mutate } = check;
  useEffect(() => mutate({ token }), [mutate, token]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{check.data?.account_name ? `Join ${check.data.account_name}` : "Accept your invitation"}</DialogTitle>
          <DialogDescription>
            {check.data?.account_name
              ? "You are invited to share this client account, with a login of your own."
              : check.data?.for_staff
                ? "You are invited to the firm's team. Choose your login for the admin portal; you then set up an authenticator app."
                : "Set up your client portal account to share documents with the firm."}
          </DialogDescription>
        </DialogHeader>
        {check.data?.account_name ? (
          <JoinAccount token={token} invitation={check.data} accountName={check.data.account_name} notice={notice} onLogin={onLogin} />
        ) : check.data ? (
          <AcceptForm token={token} invitation={check.data} notice={notice} />
        ) : check.isError ? (
          <div className="grid gap-4">
            <FormAlert message={errorDetail(check.error) ?? CHECK_FAILED} />
            <Button variant="outline" autoFocus onClick={onLogin}>
              Go to Login
            </Button>
          </div>
        ) : (
          <Spinner label="Opening your invitation…" className="min-h-40 justify-center" />
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * An invitation to an account that exists: someone who already uses the portal joins it while
 * signed in (it is added to their accounts); someone new makes their login with the form below.
 */
function JoinAccount({
  token,
  invitation,
  accountName,
  notice,
  onLogin,
}: {
  token: string;
  invitation: InvitationPeek;
  accountName: string;
  notice?: string;
  onLogin: () => void;
}) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const join = trpc.accountContacts.join.useMutation({
    onSuccess: async (account) => {
      // The joined account is now the current one: nothing cached of the one before may show.
      await queryClient.resetQueries();
      toast.success(`You joined ${account.name}.`);
      void navigate("/dashboard");
    },
  });
  if (user && !user.is_admin) {
    return (
      <div className="grid gap-4">
        <p className="text-sm">
          Signed in as <span className="font-medium">{user.email}</span>. Joining adds {accountName} to your accounts; you switch between them from
          the top bar.
        </p>
        <FormAlert message={join.isError ? (errorDetail(join.error) ?? "You could not join this account. Please try again.") : null} />
        <Button variant="accent" disabled={join.isPending} onClick={() => join.mutate({ token })}>
          {join.isPending ? "Joining…" : `Join ${accountName}`}
        </Button>
      </div>
    );
  }
  return (
    <div className="grid gap-5">
      <div className="grid gap-2 rounded-md border p-3 text-sm">
        <p>Already use this portal with {invitation.email}? Log in, then open the link in your email again to join.</p>
        <Button variant="outline" className="w-fit" onClick={onLogin}>
          Go to Login
        </Button>
      </div>
      <AcceptForm token={token} invitation={invitation} notice={notice} />
    </div>
  );
}

type Field = "username" | "name" | "password" | "confirmPassword";
const IDS: Record<Field, string> = {
  username: "invite-username",
  name: "invite-full-name",
  password: "invite-password",
  confirmPassword: "invite-confirm-password",
};
// As the Register tab: "Username ..." first, "Passwords do not match" on the confirmation.
const FIELDS: Partial<Record<Field, RegExp>> = { username: /username/i, confirmPassword: /do not match/i, password: /password/i, name: /name/i };

function AcceptForm({ token, invitation, notice }: { token: string; invitation: InvitationPeek; notice?: string }) {
  const [form, setForm] = useState({ username: "", name: invitation.name, password: "", confirmPassword: "" });
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  const [second, setSecond] = useState<SignInStep | null>(null);
  const accept = useAcceptInvitation();
  const google = useGoogleSignIn();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const set = (key: Field) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });

  const signedIn = () => {
    toast.success("Welcome! Your account is ready.");
    // One of the firm's people works in the admin portal.
    void navigate(invitation.for_staff ? "/admin/dashboard" : "/dashboard");
  };

  function show(found: FormProblem<Field>) {
    setProblem(found);
    if (found.field) focusControl(IDS[found.field]);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateRegister({ ...form, email: invitation.email });
    if (message) {
      const blank = (["username", "name", "password"] as const).find((key) => form[key].trim() === "");
      show(message === FILL_ALL_FIELDS ? { message, field: blank ?? "password" } : problemFor(message, FIELDS));
      return;
    }
    setProblem(null);
    accept.mutate(
      { token, username: form.username.trim(), name: form.name.trim(), password: form.password },
      {
        onSuccess: (result) => {
          const next = secondStepOf(result);
          if (next) setSecond(next);
          else signedIn();
        },
        onError: (err) => show(serverProblem(err, "Your account could not be created.", FIELDS)),
      },
    );
  }

  if (second) {
    // The firm requires two-factor sign-in: the new account sets it up, then is signed in.
    return <SignInSecondStep step={second} onSignedIn={() => void utils.auth.session.invalidate().then(signedIn)} onCancel={() => setSecond(null)} />;
  }

  return (
    <div className="grid gap-5">
      {notice && (
        <p role="status" className="rounded-md border border-accent/30 bg-accent-soft px-3 py-2 text-sm text-accent-soft-foreground">
          {notice}
        </p>
      )}
      <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Accept your invitation">
        <FormField id="invite-email" label="Email" hint="Your invitation is for this address.">
          <Input type="email" value={invitation.email} readOnly className="bg-muted" />
        </FormField>
        <FormField id={IDS.username} label="Username" error={errorOf(problem, "username")}>
          {/* The first thing to fill in, once the invitation is read: the focus goes here, not to Close. */}
          <Input autoFocus autoComplete="username" value={form.username} onChange={set("username")} />
        </FormField>
        <FormField id={IDS.name} label="Full Name" error={errorOf(problem, "name")}>
          <Input autoComplete="name" value={form.name} onChange={set("name")} />
        </FormField>
        <NewPasswordFields
          ids={IDS}
          values={form}
          errors={{ password: errorOf(problem, "password"), confirmPassword: errorOf(problem, "confirmPassword") }}
          onChange={set}
        />
        <FormAlert message={problem && !problem.field ? problem.message : null} />
        <Button type="submit" variant="accent" disabled={accept.isPending}>
          {accept.isPending ? "Creating Account..." : "Create Account"}
        </Button>
      </form>
      {google.configured && !invitation.for_staff && (
        <>
          <OrDivider />
          <Button variant="outline" onClick={() => google.startForInvitation(token)}>
            <GoogleGlyph />
            Continue with Google
          </Button>
        </>
      )}
    </div>
  );
}
