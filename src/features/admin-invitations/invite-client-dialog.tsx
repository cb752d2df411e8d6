import { type FormEvent, useState } from "react";
import { UserPlus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { type NameEmailField, NameEmailFields } from "@/components/name-email-fields.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { useCreateInvitation } from "./use-create-invitation.ts";

type Field = NameEmailField;
const IDS: Record<Field, string> = { name: "invite-name", email: "invite-email" };
// "An account with this email already exists", "Please enter a valid email address", "Name must be ...".
const FIELDS: Partial<Record<Field, RegExp>> = { email: /email/i, name: /name/i };
const empty = { name: "", email: "" };

export function InviteClientDialog() {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(empty);
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  const create = useCreateInvitation();

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
    create.mutate(
      { name: form.name.trim(), email: form.email.trim() },
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
          Invite client
        </Button>
      }
      className="max-w-md"
      title="Invite a client"
      description="They get an email with a link to set up their portal account. The link works once and expires in 7 days."
      onSubmit={submit}
      formLabel="Invite a client"
    >
      <NameEmailFields ids={IDS} form={form} onChange={setForm} problem={problem} />
      <FormDialogFooter problem={problem} pending={create.isPending} submitLabel="Send invitation" pendingLabel="Sending..." />
    </FormDialog>
  );
}
