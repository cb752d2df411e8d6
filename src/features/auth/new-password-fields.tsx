import type { ChangeEvent } from "react";
import { FormField } from "@/components/ui/form-field.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { PASSWORD_HINT } from "@/components/ui/password-strength-hint.ts";
import { PasswordStrengthMeter } from "@/components/ui/password-strength-meter.tsx";

type NewPasswordFieldsProps = {
  ids: { password: string; confirmPassword: string };
  values: { password: string; confirmPassword: string };
  errors: { password?: string; confirmPassword?: string };
  onChange: (field: "password" | "confirmPassword") => (event: ChangeEvent<HTMLInputElement>) => void;
  /** The form's other answers (username, email, name), which the strength meter counts as easy to guess. */
  userInputs?: string[];
};

/** A new account's password and its confirmation, with registration's rules in the hint (registration and invitations). */
export function NewPasswordFields({ ids, values, errors, onChange, userInputs }: NewPasswordFieldsProps) {
  return (
    <>
      <FormField id={ids.password} label="Password" hint={PASSWORD_HINT} error={errors.password}>
        <PasswordInput autoComplete="new-password" value={values.password} onChange={onChange("password")} />
      </FormField>
      <PasswordStrengthMeter password={values.password} userInputs={userInputs} className="-mt-2" />
      <FormField id={ids.confirmPassword} label="Confirm Password" error={errors.confirmPassword}>
        <PasswordInput autoComplete="new-password" value={values.confirmPassword} onChange={onChange("confirmPassword")} />
      </FormField>
    </>
  );
}

/** The line between a form and the other ways in (passkey, Google). */
export function OrDivider() {
  return (
    <div className="flex items-center gap-3 text-xs text-muted-foreground">
      <span className="h-px grow bg-border" />
      or
      <span className="h-px grow bg-border" />
    </div>
  );
}
