import { type FormEvent, useState } from "react";
import { UserMinus, UserPlus } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { HouseholdRoleSelect, type HouseholdRoleValue, householdRoleLabel } from "@/components/household-role-select.tsx";
import { type NameEmailField, NameEmailFields } from "@/components/name-email-fields.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { Select } from "@/components/ui/select.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import type { AccountContact, FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import { useAddContact, useRemoveContact, useUpdateContact } from "./use-account-changes.ts";

/** An account's people: who may sign in to it and who gets its emails; invite, change and remove them. */
export function PeopleSection({ account, mayManage }: { account: FirmAccount; mayManage: boolean }) {
  return (
    <section aria-labelledby="people-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="people-heading" className="text-lg font-semibold">
            People
          </h2>
          <p className="text-sm text-muted-foreground">Each person signs in with their own login. Removing a person ends their access at once.</p>
        </div>
        {mayManage && <AddPersonDialog account={account} />}
      </div>
      {account.contacts.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {account.retained_until
            ? `No people. Its signed records are kept until ${formatDate(account.retained_until)}, so the account stays until then even without people; invite someone to give them access again.`
            : "No people yet: invite the first one, who will own the account."}
        </p>
      ) : (
        <ul aria-label={`People of ${account.name}`} className="grid divide-y rounded-lg border">
          {account.contacts.map((contact) => (
            <PersonRow key={contact.user_id ?? contact.invitation_id} account={account} contact={contact} mayManage={mayManage} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PersonRow({ account, contact, mayManage }: { account: FirmAccount; contact: AccountContact; mayManage: boolean }) {
  const update = useUpdateContact();
  const remove = useRemoveContact();
  const userId = contact.user_id;
  const refused = (err: unknown) => toast.error(errorDetail(err) ?? "The change was not saved.");
  const household = account.kind === "household";
  const roleWord = householdRoleLabel(contact.household_role);
  const change = (changes: { role?: "owner" | "member"; household_role?: HouseholdRoleValue; portal_access?: boolean; notify?: boolean }) =>
    userId && update.mutate({ id: account.id, userId, ...changes }, { onError: refused });

  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between sm:p-4" aria-label={contact.name}>
      <div className="grid min-w-0 gap-0.5">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <TruncatedText text={contact.name} className="font-medium" />
          {userId === null ? <Badge variant="muted">Invited</Badge> : contact.role === "owner" && <Badge variant="success">Owner</Badge>}
          {household && roleWord && <Badge variant="muted">{roleWord}</Badge>}
          {userId !== null && !contact.portal_access && <Badge variant="muted">No portal access</Badge>}
        </div>
        <TruncatedText text={contact.email} className="text-sm text-muted-foreground" />
      </div>
      {mayManage && userId !== null && (
        <div className="flex flex-wrap items-center gap-2">
          {household && (
            <HouseholdRoleSelect
              aria-label={`Household role of ${contact.name}`}
              wrapperClassName="w-36"
              value={contact.household_role}
              disabled={update.isPending}
              onValue={(household_role) => change({ household_role })}
            />
          )}
          <Select
            aria-label={`Role of ${contact.name}`}
            wrapperClassName="w-32"
            value={contact.role}
            disabled={update.isPending}
            onChange={(e) => change({ role: e.target.value as "owner" | "member" })}
          >
            <option value="owner">Owner</option>
            <option value="member">Member</option>
          </Select>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" checked={contact.portal_access} onChange={(e) => change({ portal_access: e.target.checked })} />
            Portal access
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" checked={contact.notify} onChange={(e) => change({ notify: e.target.checked })} />
            Emails
          </label>
          <ConfirmAction
            title={`Remove ${contact.name} from ${account.name}?`}
            question="Their access to this account ends at once. Their own login and other accounts stay."
            confirmLabel="Remove"
            onConfirm={() => remove.mutate({ id: account.id, userId }, { onError: refused })}
            trigger={
              <Button variant="ghost-destructive" size="sm" aria-label={`Remove ${contact.name}`}>
                <UserMinus aria-hidden="true" />
                Remove
              </Button>
            }
          />
        </div>
      )}
    </li>
  );
}

type Field = NameEmailField;
const IDS: Record<Field, string> = { name: "person-name", email: "person-email" };

function AddPersonDialog({ account }: { account: FirmAccount }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ name: "", email: "" });
  const [householdRole, setHouseholdRole] = useState<HouseholdRoleValue>(null);
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  const add = useAddContact();

  function openChange(next: boolean) {
    if (next) {
      setForm({ name: "", email: "" });
      setHouseholdRole(null);
      setProblem(null);
    }
    setOpen(next);
  }

  function show(found: FormProblem<Field>) {
    setProblem(found);
    if (found.field) focusControl(IDS[found.field]);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const blank = (["name", "email"] as const).find((field) => form[field].trim() === "");
    if (blank) {
      show({ message: "Please fill in all fields", field: blank });
      return;
    }
    add.mutate(
      { id: account.id, name: form.name.trim(), email: form.email.trim(), ...(householdRole ? { household_role: householdRole } : {}) },
      {
        onSuccess: () => {
          toast.success(`${form.email.trim()} was added to ${account.name}.`);
          setOpen(false);
        },
        onError: (err) => show(serverProblem(err, "The person could not be added.", { email: /email/i, name: /name/i })),
      },
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button>
          <UserPlus aria-hidden="true" />
          Invite a person
        </Button>
      }
      className="max-w-md"
      title={<>Invite a person to {account.name}</>}
      description="A new person gets an email with a link to set up their login. Someone who is already a client is added at once and told by email."
      onSubmit={submit}
      formLabel="Invite a person"
    >
      <NameEmailFields ids={IDS} form={form} onChange={setForm} problem={problem} />
      {account.kind === "household" && (
        <FormField id="person-household-role" label="Role in the household">
          <HouseholdRoleSelect value={householdRole} onValue={setHouseholdRole} />
        </FormField>
      )}
      <FormDialogFooter problem={problem} pending={add.isPending} submitLabel="Invite" pendingLabel="Sending..." />
    </FormDialog>
  );
}
