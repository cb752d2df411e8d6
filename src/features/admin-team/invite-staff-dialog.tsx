import { type FormEvent, useState } from "react";
import { UserPlus } from "lucide-react";
import { toast } from "sonner";
import type { StaffRight } from "@server/domains/staff/schemas.ts";
import { Button } from "@/components/ui/button.tsx";
import { type NameEmailField, NameEmailFields } from "@/components/name-email-fields.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Select } from "@/components/ui/select.tsx";
import { focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { RightsFieldset } from "./rights-fieldset.tsx";
import { useInviteStaff } from "./use-staff.ts";

type Field = NameEmailField;
const IDS: Record<Field, string> = { name: "staff-invite-name", email: "staff-invite-email" };
const FIELDS: Partial<Record<Field, RegExp>> = { email: /email/i, name: /name/i };
const empty = { name: "", email: "", role: "staff" as "admin" | "staff", rights: [] as StaffRight[] };

/** Invite a person to the firm's team: an admin (every right) or staff with the rights ticked. */
export function InviteStaffDialog({ mayInviteAdmins }: { mayInviteAdmins: boolean }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(empty);
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  const invite = useInviteStaff();

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

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const blank = (["name", "email"] as const).find((field) => form[field].trim() === "");
    if (blank) {
      show({ message: "Please fill in all fields", field: blank });
      return;
    }
    invite.mutate(
      { name: form.name.trim(), email: form.email.trim(), role: form.role, rights: form.role === "staff" ? form.rights : [] },
      {
        onSuccess: (invitation) => {
          toast.success(`Invitation sent to ${invitation.email}.`);
          setOpen(false);
        },
        onError: (err) => show(serverProblem(err, "The invitation could not be sent.", FIELDS)),
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
          Invite team member
        </Button>
      }
      className="max-w-lg"
      title="Invite a team member"
      description="They get an email with a link to choose a username and password and set up an authenticator app. The link works once and expires in 7 days."
      onSubmit={submit}
      formLabel="Invite a team member"
    >
      <NameEmailFields ids={IDS} form={form} onChange={setForm} problem={problem} />
      {mayInviteAdmins && (
        <FormField id="staff-invite-role" label="Role">
          <Select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as "admin" | "staff" })}>
            <option value="staff">Staff: the rights ticked below</option>
            <option value="admin">Admin: everything but ownership</option>
          </Select>
        </FormField>
      )}
      {form.role === "staff" && (
        <RightsFieldset idPrefix="staff-invite-right" value={form.rights} onChange={(rights) => setForm({ ...form, rights })} />
      )}
      <FormDialogFooter problem={problem} pending={invite.isPending} submitLabel="Send invitation" pendingLabel="Sending..." />
    </FormDialog>
  );
}
