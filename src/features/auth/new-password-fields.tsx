import type { ChangeEvent } from "react";
import { FormField } from "@/components/ui/form-field.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";

type NewPasswordFieldsProps = {
  ids: { password: string; confirmPassword: string };
  values: { password: string; confirmPassword: string };
  errors: { password?: string; confirmPassword?: string };
  onChange: (field: "password" | "confirmPassword") => (event: ChangeEvent<HTMLInputElement>) => void;
};

/** A new account's password and its confirmation, with registration's rules in the hint (registration and invitations). */
export function NewPasswordFields({ ids, values, errors, onChange }: NewPasswordFieldsProps) {
  return (
    <>
      <FormField
        id={ids.password}
        label="Password"
        hint="At least 6 characters. Common passwords, such as password123, are refused."
        error={errors.password}
      >
        <PasswordInput autoComplete="new-password" value={values.password} onChange={onChange("password")} />
      </FormField>
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
