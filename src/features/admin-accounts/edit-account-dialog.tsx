import { type FormEvent, useState } from "react";
import { Pencil } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import { ACCOUNT_KINDS, type CurrentAccount } from "@server/domains/accounts/schemas.ts";
import { KIND_LABELS } from "./kind-labels.ts";
import { useUpdateAccount } from "./use-account-changes.ts";

/** Renames a client account or changes its kind (PATCH /api/admin/accounts/:id); the trail records the change. */
export function EditAccountDialog({ account }: { account: FirmAccount }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(account.name);
  const [kind, setKind] = useState<CurrentAccount["kind"]>(account.kind);
  const [problem, setProblem] = useState<FormProblem<"name"> | null>(null);
  const update = useUpdateAccount();

  function openChange(next: boolean) {
    if (next) {
      setName(account.name);
      setKind(account.kind);
      setProblem(null);
    }
    setOpen(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setProblem({ message: "Please fill in all fields", field: "name" });
      focusControl("edit-account-name");
      return;
    }
    try {
      const saved = await update.mutateAsync({ id: account.id, name: name.trim(), kind });
      toast.success(`Saved ${saved.name}`);
      setOpen(false);
    } catch (err) {
      const found = serverProblem(err, "The account could not be saved.", { name: /name/i });
      setProblem(found);
      if (found.field) focusControl("edit-account-name");
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button variant="outline" size="sm">
          <Pencil aria-hidden="true" />
          Edit<span className="sr-only"> name and kind</span>
        </Button>
      }
      className="max-w-md"
      title="Edit client account"
      description="Its people see the new name in their account switcher and emails."
      onSubmit={(e) => void submit(e)}
      formLabel="Edit client account"
    >
      <FormField id="edit-account-name" label="Account name" error={errorOf(problem, "name")} required>
        <Input autoComplete="off" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </FormField>
      <FormField id="edit-account-kind" label="Kind">
        <Select value={kind} onChange={(e) => setKind(e.target.value as CurrentAccount["kind"])}>
          {ACCOUNT_KINDS.map((value) => (
            <option key={value} value={value}>
              {KIND_LABELS[value]}
            </option>
          ))}
        </Select>
      </FormField>
      <FormDialogFooter problem={problem} pending={update.isPending} submitLabel="Save" pendingLabel="Saving..." />
    </FormDialog>
  );
}
