import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { errorOf, type FormProblem } from "@/lib/form-problem.ts";

export type NameEmailField = "name" | "email";

type NameEmailFieldsProps<T extends Record<NameEmailField, string>> = {
  /** The controls' ids, for the labels and for focusing the field a problem names. */
  ids: Record<NameEmailField, string>;
  form: T;
  onChange: (form: T) => void;
  problem: FormProblem<NameEmailField> | null;
};

/** An invitation's required Full Name and Email fields (a client, a team member, a person of an account), each with its error. */
export function NameEmailFields<T extends Record<NameEmailField, string>>({ ids, form, onChange, problem }: NameEmailFieldsProps<T>) {
  return (
    <>
      <FormField id={ids.name} label="Full Name" error={errorOf(problem, "name")} required>
        <Input autoComplete="off" value={form.name} onChange={(e) => onChange({ ...form, name: e.target.value })} />
      </FormField>
      <FormField id={ids.email} label="Email" error={errorOf(problem, "email")} required>
        <Input type="email" autoComplete="off" value={form.email} onChange={(e) => onChange({ ...form, email: e.target.value })} />
      </FormField>
    </>
  );
}
