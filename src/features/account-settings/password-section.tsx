import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { PASSWORD_HINT } from "@/components/ui/password-strength-hint.ts";
import { PasswordStrengthMeter } from "@/components/ui/password-strength-meter.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { type FormProblem, errorOf, problemFor } from "@/lib/form-problem.ts";
import { PASSWORDS_DO_NOT_MATCH } from "@server/domains/auth/schemas.ts";
import { SettingsSection } from "./settings-section.tsx";
import { useChangePassword } from "./use-change-password.ts";

type Field = "current" | "next" | "confirm";
const FIELDS: Partial<Record<Field, RegExp>> = { current: /current password/i, confirm: /do not match/i, next: /password/i };
const empty = { current: "", next: "", confirm: "" };

export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const [form, setForm] = useState(empty);
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  const change = useChangePassword();

  if (!hasPassword) {
    return (
      <SettingsSection id="password" title="Password">
        <p className="text-sm text-muted-foreground">
          You sign in with Google and have no password here. To set one, sign out and use “Forgot your password?” in the Client Portal dialog.
        </p>
      </SettingsSection>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (form.next !== form.confirm) {
      setProblem({ message: PASSWORDS_DO_NOT_MATCH, field: "confirm" });
      return;
    }
    change.mutate(
      { current_password: form.current, new_password: form.next },
      {
        onSuccess: () => {
          setProblem(null);
          setForm(empty);
          toast.success("Password changed. Every other session was signed out.");
        },
        onError: (err) => setProblem(problemFor(errorDetail(err) ?? "The password could not be changed.", FIELDS)),
      },
    );
  }

  const set = (key: Field) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
  return (
    <SettingsSection id="password" title="Password" description="Changing it signs out every other browser and device.">
      <form noValidate onSubmit={submit} aria-label="Change password" className="grid gap-3">
        <FormField id="password-current" label="Current password" error={errorOf(problem, "current")}>
          <PasswordInput autoComplete="current-password" value={form.current} onChange={set("current")} />
        </FormField>
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <FormField id="password-new" label="New password" hint={PASSWORD_HINT} error={errorOf(problem, "next")}>
              <PasswordInput autoComplete="new-password" value={form.next} onChange={set("next")} />
            </FormField>
            <PasswordStrengthMeter password={form.next} />
          </div>
          <FormField id="password-confirm" label="Confirm new password" error={errorOf(problem, "confirm")} className="content-start">
            <PasswordInput autoComplete="new-password" value={form.confirm} onChange={set("confirm")} />
          </FormField>
        </div>
        <FormAlert message={problem && !problem.field ? problem.message : null} />
        <Button type="submit" className="w-fit" disabled={change.isPending || !form.current || !form.next}>
          {change.isPending ? "Changing..." : "Change password"}
        </Button>
      </form>
    </SettingsSection>
  );
}
