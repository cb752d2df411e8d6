import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs.tsx";
import { PasskeySignInButton } from "@/components/sign-in/passkey-sign-in-button.tsx";
import { SignInSecondStep } from "@/components/sign-in/second-step.tsx";
import { errorOf, focusControl, type FormProblem, problemFor, serverProblem } from "@/lib/form-problem.ts";
import { rememberReturnAcrossGoogle } from "@/lib/session-ended.ts";
import { secondStepOf, type SignInStep } from "@/lib/sign-in-step.ts";
import { trpc } from "@/lib/trpc.ts";
import { REGISTRATION_INVITE_ONLY } from "@server/domains/invitations/messages.ts";
import { FILL_ALL_FIELDS, type RegisterForm, validateLogin, validateRegister } from "./auth-validation.ts";
import { GoogleGlyph } from "./google-glyph.tsx";
import { useGoogleSignIn } from "./use-google-sign-in.ts";
import { useLogin } from "./use-login.ts";
import { useRegister } from "./use-register.ts";
import { useRegistrationMode } from "./use-registration-mode.ts";
import { NewPasswordFields, OrDivider } from "./new-password-fields.tsx";

export type PortalTab = "login" | "register";

type ClientPortalDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tab: PortalTab;
  onTabChange: (tab: PortalTab) => void;
  onForgotPassword: () => void;
  /** Why the visitor is asked to sign in (a session that ended, a password just reset), above the form. */
  notice?: string;
  /** Fills the username field, e.g. after a password reset. */
  loginPrefill?: string;
  /** Where a signed-in client goes; the dashboard unless they came from a page of it. */
  returnTo?: string;
};

export function ClientPortalDialog({
  open,
  onOpenChange,
  tab,
  onTabChange,
  onForgotPassword,
  notice,
  loginPrefill,
  returnTo,
}: ClientPortalDialogProps) {
  // Asked as the dialog opens, so the Register tab knows at once whether to offer its form.
  const registration = useRegistrationMode();
  // After a registration the Login tab says where the verification email went.
  const [registered, setRegistered] = useState<{ email: string } | null>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Client Portal</DialogTitle>
          <DialogDescription>Log in to your documents and appointments, or create an account.</DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={(value) => onTabChange(value as PortalTab)}>
          <TabsList className="grid w-full grid-cols-2">
            <TabsTrigger value="login">Login</TabsTrigger>
            <TabsTrigger value="register">Register</TabsTrigger>
          </TabsList>
          <TabsContent value="login">
            <LoginForm
              onForgotPassword={onForgotPassword}
              notice={registered ? verificationOnItsWay(registered.email) : notice}
              prefill={loginPrefill}
              returnTo={returnTo}
            />
          </TabsContent>
          <TabsContent value="register">
            {registration === "invite_only" ? (
              <InviteOnlyNotice onLogin={() => onTabChange("login")} />
            ) : (
              // Shown while the setting is asked too: a refusal would come back as the form's error.
              <RegisterFormPanel
                onRegistered={(who) => {
                  setRegistered(who);
                  onTabChange("login");
                }}
              />
            )}
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

const verificationOnItsWay = (email: string) =>
  `Your account is ready. A verification email is on its way to ${email}: open its link to confirm your address. You can log in now.`;

type LoginField = "username" | "password";
// "Invalid username or password" cannot say which: the password is the one to type again.
const LOGIN_FIELDS: Partial<Record<LoginField, RegExp>> = { password: /password/i };
const LOGIN_IDS: Record<LoginField, string> = { username: "login-username", password: "login-password" };

type LoginFormProps = { onForgotPassword: () => void; notice?: string; prefill?: string; returnTo?: string };

function LoginForm({ onForgotPassword, notice, prefill, returnTo }: LoginFormProps) {
  const [form, setForm] = useState({ username: prefill ?? "", password: "" });
  const [problem, setProblem] = useState<FormProblem<LoginField> | null>(null);
  const [second, setSecond] = useState<SignInStep | null>(null);
  const login = useLogin();
  const google = useGoogleSignIn();
  const navigate = useNavigate();
  const utils = trpc.useUtils();

  const signedIn = () => {
    toast.success("Logged in successfully!", { id: AUTH_TOAST });
    // A portal page that sent the visitor here holds "signed out" in the cache: it asks afresh.
    void utils.auth.session.reset().then(() => navigate(returnTo ?? "/dashboard"));
  };
  // The second step and a passkey set the cookie themselves: the session check must see it.
  const signedInElsewhere = () => {
    void utils.auth.session.invalidate().then(signedIn);
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateLogin(form);
    if (message) {
      const field: LoginField = form.username.trim() === "" ? "username" : "password";
      setProblem({ message, field });
      focusControl(LOGIN_IDS[field]);
      return;
    }
    setProblem(null);
    login.mutate(
      { username: form.username.trim(), password: form.password },
      {
        onSuccess: (result) => {
          const next = secondStepOf(result);
          if (next) setSecond(next);
          else signedIn();
        },
        onError: (err) => {
          const found = serverProblem(err, "Login failed", LOGIN_FIELDS);
          setProblem(found);
          if (found.field) focusControl(LOGIN_IDS[found.field]);
        },
      },
    );
  }

  if (second) {
    return (
      <SignInSecondStep
        step={second}
        onSignedIn={signedInElsewhere}
        onCancel={() => {
          setSecond(null);
          setForm((f) => ({ ...f, password: "" }));
        }}
      />
    );
  }

  return (
    <div className="grid gap-5">
      {notice && (
        <p role="status" className="rounded-md border border-accent/30 bg-accent-soft px-3 py-2 text-sm text-accent-soft-foreground">
          {notice}
        </p>
      )}
      <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Login">
        <FormField id={LOGIN_IDS.username} label="Username" hint="Or the email address of your account." error={errorOf(problem, "username")}>
          <Input
            autoComplete="username"
            autoFocus={Boolean(prefill)}
            value={form.username}
            onChange={(e) => setForm({ ...form, username: e.target.value })}
          />
        </FormField>
        <FormField id={LOGIN_IDS.password} label="Password" error={errorOf(problem, "password")}>
          <PasswordInput autoComplete="current-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
        </FormField>
        <Button variant="link" className="w-fit justify-self-end text-sm" onClick={onForgotPassword}>
          Forgot your password?
        </Button>
        <FormAlert message={problem && !problem.field ? problem.message : null} />
        <Button type="submit" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Login"}
        </Button>
      </form>
      <OrDivider />
      <div className="grid gap-3">
        <PasskeySignInButton portal="client" onSignedIn={signedInElsewhere} onProblem={(message) => setProblem(message ? { message } : null)} />
        {google.configured && (
          <Button
            variant="outline"
            onClick={() => {
              rememberReturnAcrossGoogle(returnTo);
              google.start();
            }}
          >
            <GoogleGlyph />
            Continue with Google
          </Button>
        )}
      </div>
    </div>
  );
}

/** One toast at a time for signing in and registering: a new one replaces the last. */
const AUTH_TOAST = "client-portal";

const emptyRegisterForm: RegisterForm = { username: "", email: "", name: "", password: "", confirmPassword: "" };

type RegisterField = keyof RegisterForm;
const REGISTER_IDS: Record<RegisterField, string> = {
  username: "register-username",
  email: "register-email",
  name: "register-name",
  password: "register-password",
  confirmPassword: "register-confirm-password",
};
// Checked in this order: "Username ..." before the name, "Passwords do not match" on the confirmation.
const REGISTER_FIELDS: Partial<Record<RegisterField, RegExp>> = {
  username: /username/i,
  email: /email/i,
  confirmPassword: /do not match/i,
  password: /password/i,
  name: /name/i,
};

/** The first empty field, for "Please fill in all fields". */
function firstBlank(form: RegisterForm): RegisterField {
  const order: RegisterField[] = ["username", "email", "name", "password"];
  return order.find((key) => form[key].trim() === "") ?? "password";
}

function RegisterFormPanel({ onRegistered }: { onRegistered: (who: { email: string }) => void }) {
  const [form, setForm] = useState<RegisterForm>(emptyRegisterForm);
  const [problem, setProblem] = useState<FormProblem<RegisterField> | null>(null);
  const register = useRegister();
  const set = (key: keyof RegisterForm) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });

  const show = (found: FormProblem<RegisterField>) => {
    setProblem(found);
    if (found.field) focusControl(REGISTER_IDS[found.field]);
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateRegister(form);
    if (message) {
      show(message === FILL_ALL_FIELDS ? { message, field: firstBlank(form) } : problemFor(message, REGISTER_FIELDS));
      return;
    }
    setProblem(null);
    register.mutate(
      { username: form.username.trim(), email: form.email.trim(), name: form.name.trim(), password: form.password },
      {
        onSuccess: () => {
          toast.success("Registration successful! Please log in.", { id: AUTH_TOAST });
          setForm(emptyRegisterForm);
          onRegistered({ email: form.email.trim() });
        },
        onError: (err) => show(serverProblem(err, "Registration failed", REGISTER_FIELDS)),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Register">
      <FormField id={REGISTER_IDS.username} label="Username" error={errorOf(problem, "username")}>
        <Input autoComplete="username" value={form.username} onChange={set("username")} />
      </FormField>
      <FormField id={REGISTER_IDS.email} label="Email" error={errorOf(problem, "email")}>
        <Input type="email" autoComplete="email" value={form.email} onChange={set("email")} />
      </FormField>
      <FormField id={REGISTER_IDS.name} label="Full Name" error={errorOf(problem, "name")}>
        <Input autoComplete="name" value={form.name} onChange={set("name")} />
      </FormField>
      <NewPasswordFields
        ids={REGISTER_IDS}
        values={form}
        errors={{ password: errorOf(problem, "password"), confirmPassword: errorOf(problem, "confirmPassword") }}
        onChange={set}
        userInputs={[form.username, form.email, form.name]}
      />
      <FormAlert message={problem && !problem.field ? problem.message : null} />
      <Button type="submit" variant="accent" disabled={register.isPending}>
        {register.isPending ? "Creating Account..." : "Create Account"}
      </Button>
    </form>
  );
}

function InviteOnlyNotice({ onLogin }: { onLogin: () => void }) {
  return (
    <div className="grid gap-3 py-2">
      <p role="status" className="rounded-md border border-accent/30 bg-accent-soft px-3 py-2 text-sm font-medium text-accent-soft-foreground">
        {REGISTRATION_INVITE_ONLY}
      </p>
      <p className="text-sm text-muted-foreground">
        If the firm invited you, open the link in your invitation email to set up your account. Already have an account?
      </p>
      <Button variant="outline" onClick={onLogin}>
        Go to Login
      </Button>
    </div>
  );
}
