import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { PasskeySignInButton } from "@/components/sign-in/passkey-sign-in-button.tsx";
import { SignInSecondStep } from "@/components/sign-in/second-step.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import type { SignInStep } from "@/lib/sign-in-step.ts";
import { useAdminLogin } from "./use-admin-login.ts";

/** `returnTo`: where a successful sign-in goes (the admin dashboard, with the tab the admin was on). */
export function AdminLoginForm({ returnTo }: { returnTo: string }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [second, setSecond] = useState<SignInStep | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { login, signedIn } = useAdminLogin(returnTo, setSecond);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!username.trim() || !password) {
      toast.error("Please fill in all fields");
      return;
    }
    login.mutate({ username: username.trim(), password });
  }

  if (second) {
    return (
      <SignInSecondStep
        step={second}
        onSignedIn={() => void signedIn()}
        onCancel={() => {
          setSecond(null);
          setPassword("");
        }}
      />
    );
  }

  return (
    <div className="grid gap-5">
      <form noValidate onSubmit={submit} className="grid gap-5" aria-busy={login.isPending || undefined}>
        <FormField id="admin-username" label="Username">
          <Input
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </FormField>
        <FormField id="admin-password" label="Password">
          <Input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </FormField>
        <Button type="submit" disabled={login.isPending} className="w-full">
          {login.isPending ? "Signing in..." : "Sign in"}
        </Button>
      </form>
      <div className="flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px grow bg-border" />
        or
        <span className="h-px grow bg-border" />
      </div>
      <PasskeySignInButton portal="admin" onSignedIn={() => void signedIn()} onProblem={setProblem} />
      <FormAlert message={problem} />
    </div>
  );
}
