import { type FormEvent, useState } from "react";
import { Plus } from "lucide-react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { ACCOUNT_KINDS, type CurrentAccount } from "@server/domains/accounts/schemas.ts";
import { KIND_LABELS } from "./kind-labels.ts";
import { useAddContact, useCreateAccount } from "./use-account-changes.ts";

type Field = "name" | "personName" | "email";
const IDS: Record<Field | "kind", string> = {
  name: "account-name",
  kind: "account-kind",
  personName: "account-person-name",
  email: "account-person-email",
};
const empty = { name: "", kind: "household" as CurrentAccount["kind"], personName: "", email: "" };

/** A new client account and, optionally, its first person (invited by email, or added at once if already a client). */
export function NewAccountDialog() {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(empty);
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  const create = useCreateAccount();
  const addContact = useAddContact();
  const navigate = useNavigate();
  const busy = create.isPending || addContact.isPending;

  function openChange(next: boolean) {
    if (next) {
      setForm(empty);
      setProblem(null);
    }
    setOpen(next);
  }

  function show(found: FormProblem<Field>) {
    setProblem(found);
    if (found.field) focusControl(IDS[found.field]);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const person = form.personName.trim() !== "" || form.email.trim() !== "";
    const blank = (["name", ...(person ? (["personName", "email"] as const) : [])] as const).find((field) => form[field].trim() === "");
    if (blank) {
      show({ message: "Please fill in all fields", field: blank });
      return;
    }
    try {
      const account = await create.mutateAsync({ name: form.name.trim(), kind: form.kind });
      if (person) {
        try {
          await addContact.mutateAsync({ id: account.id, name: form.personName.trim(), email: form.email.trim() });
        } catch (err) {
          // The account exists: its page shows the refusal's cause and lets the firm add the person again.
          toast.error(`${account.name} was created, but its first person was not added: ${serverProblem(err, "try again on its page.", {}).message}`);
          void navigate(`/admin/accounts/${account.id}`);
          return;
        }
      }
      toast.success(person ? `${account.name} was created and ${form.email.trim()} was invited.` : `${account.name} was created.`);
      setOpen(false);
      void navigate(`/admin/accounts/${account.id}`);
    } catch (err) {
      show(serverProblem(err, "The account could not be created.", { name: /name/i }));
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button>
          <Plus aria-hidden="true" />
          New client account
        </Button>
      }
      className="max-w-md"
      title="New client account"
      description="You can request documents, share files and write to the account at once; its people see it all when they first sign in."
      onSubmit={(e) => void submit(e)}
      formLabel="New client account"
    >
      <FormField id={IDS.name} label="Account name" error={errorOf(problem, "name")} required>
        <Input autoComplete="off" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </FormField>
      <FormField id={IDS.kind} label="Kind">
        <Select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as CurrentAccount["kind"] })}>
          {ACCOUNT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </Select>
      </FormField>
      <fieldset className="grid gap-3 rounded-lg border p-3">
        <legend className="px-1 text-sm font-medium">First person (optional)</legend>
        <FormField id={IDS.personName} label="Full Name" error={errorOf(problem, "personName")}>
          <Input autoComplete="off" value={form.personName} onChange={(e) => setForm({ ...form, personName: e.target.value })} />
        </FormField>
        <FormField id={IDS.email} label="Email" error={errorOf(problem, "email")}>
          <Input type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </FormField>
      </fieldset>
      <FormDialogFooter problem={problem} pending={busy} submitLabel="Create account" pendingLabel="Creating..." />
    </FormDialog>
  );
}
