import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { type RegisterForm, validateLogin, validateRegister } from "./auth-validation.ts";
import { useGoogleSignIn } from "./use-google-sign-in.ts";
import { useLogin } from "./use-login.ts";
import { useRegister } from "./use-register.ts";

export type PortalTab = "login" | "register";

type ClientPortalDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tab: PortalTab;
  onTabChange: (tab: PortalTab) => void;
  onForgotPassword: () => void;
};

export function ClientPortalDialog({ open, onOpenChange, tab, onTabChange, onForgotPassword }: ClientPortalDialogProps) {
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
            <LoginForm onForgotPassword={onForgotPassword} />
          </TabsContent>
          <TabsContent value="register">
            <RegisterFormPanel onRegistered={() => onTabChange("login")} />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

function FormAlert({ message }: { message: string | null }) {
  return (
    <p role="alert" className="text-sm font-medium text-destructive empty:hidden">
      {message}
    </p>
  );
}

function LoginForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const [form, setForm] = useState({ username: "", password: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const login = useLogin();
  const continueWithGoogle = useGoogleSignIn();
  const navigate = useNavigate();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateLogin(form);
    setProblem(message);
    if (message) return;
    login.mutate(
      { username: form.username.trim(), password: form.password },
      {
        onSuccess: () => {
          toast.success("Logged in successfully!");
          void navigate("/dashboard");
        },
        onError: (err) => toast.error(errorDetail(err) ?? "Login failed"),
      },
    );
  }

  return (
    <div className="grid gap-5">
      <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Login">
        <FormField id="login-username" label="Username">
          <Input
            autoComplete="username"
            value={form.username}
            onChange={(e) => setForm({ ...form, username: e.target.value })}
          />
        </FormField>
        <FormField id="login-password" label="Password">
          <Input
            type="password"
            autoComplete="current-password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
          />
        </FormField>
        <Button variant="link" className="w-fit justify-self-end text-sm" onClick={onForgotPassword}>
          Forgot your password?
        </Button>
        <FormAlert message={problem} />
        <Button type="submit" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Login"}
        </Button>
      </form>
      <div className="flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px grow bg-border" />
        or
        <span className="h-px grow bg-border" />
      </div>
      <Button variant="outline" onClick={() => void continueWithGoogle()}>
        <GoogleGlyph />
        Continue with Google
      </Button>
    </div>
  );
}

const emptyRegisterForm: RegisterForm = { username: "", email: "", name: "", password: "", confirmPassword: "" };

function RegisterFormPanel({ onRegistered }: { onRegistered: () => void }) {
  const [form, setForm] = useState<RegisterForm>(emptyRegisterForm);
  const [problem, setProblem] = useState<string | null>(null);
  const register = useRegister();
  const set = (key: keyof RegisterForm) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = validateRegister(form);
    setProblem(message);
    if (message) return;
    register.mutate(
      { username: form.username.trim(), email: form.email.trim(), name: form.name.trim(), password: form.password },
      {
        onSuccess: () => {
          toast.success("Registration successful! Please log in.");
          setForm(emptyRegisterForm);
          onRegistered();
        },
        onError: (err) => toast.error(errorDetail(err) ?? "Registration failed"),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Register">
      <FormField id="register-username" label="Username">
        <Input autoComplete="username" value={form.username} onChange={set("username")} />
      </FormField>
      <FormField id="register-email" label="Email">
        <Input type="email" autoComplete="email" value={form.email} onChange={set("email")} />
      </FormField>
      <FormField id="register-name" label="Full Name">
        <Input autoComplete="name" value={form.name} onChange={set("name")} />
      </FormField>
      <FormField id="register-password" label="Password" hint="At least 6 characters.">
        <Input type="password" autoComplete="new-password" value={form.password} onChange={set("password")} />
      </FormField>
      <FormField id="register-confirm-password" label="Confirm Password">
        <Input type="password" autoComplete="new-password" value={form.confirmPassword} onChange={set("confirmPassword")} />
      </FormField>
      <FormAlert message={problem} />
      <Button type="submit" variant="accent" disabled={register.isPending}>
        {register.isPending ? "Creating Account..." : "Create Account"}
      </Button>
    </form>
  );
}

function GoogleGlyph() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7Z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24Z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1Z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.8 3.6-4.9 6.7-4.9Z" />
    </svg>
  );
}
