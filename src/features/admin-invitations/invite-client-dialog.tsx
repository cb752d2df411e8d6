import { type FormEvent, useState } from "react";
import { UserPlus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { useCreateInvitation } from "./use-create-invitation.ts";

type Field = "name" | "email";
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
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden="true" />
          Invite client
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Invite a client</DialogTitle>
          <DialogDescription>
            They get an email with a link to set up their portal account. The link works once and expires in 7 days.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Invite a client">
          <FormField id={IDS.name} label="Full Name" error={errorOf(problem, "name")} required>
            <Input autoComplete="off" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </FormField>
          <FormField id={IDS.email} label="Email" error={errorOf(problem, "email")} required>
            <Input type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </FormField>
          <FormAlert message={problem && !problem.field ? problem.message : null} />
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Sending..." : "Send invitation"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
