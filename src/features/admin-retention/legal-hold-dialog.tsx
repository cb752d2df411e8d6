import { Lock } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { usePlaceLegalHold } from "./use-retention.ts";

/** Places a legal hold on an account, with the reason the trail keeps (POST /api/admin/accounts/:id/legal-hold). */
export function LegalHoldDialog({ account, triggerLabel = "Hold" }: { account: { id: string; name: string }; triggerLabel?: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<FormProblem<"reason"> | null>(null);
  const place = usePlaceLegalHold();
  const fieldId = `legal-hold-reason-${account.id}`;

  function openChange(next: boolean) {
    if (next) {
      setReason("");
      setProblem(null);
    }
    setOpen(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reason.trim()) {
      setProblem({ message: "Say why the account is held", field: "reason" });
      focusControl(fieldId);
      return;
    }
    try {
      await place.mutateAsync({ id: account.id, reason: reason.trim() });
      toast.success(`${account.name} is on hold: nothing of it will be deleted.`);
      setOpen(false);
    } catch (err) {
      setProblem(serverProblem(err, "The hold could not be placed.", { reason: /reason|held/i }));
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button variant="outline" size="sm">
          <Lock aria-hidden="true" />
          {triggerLabel}
          <span className="sr-only"> {account.name}</span>
        </Button>
      }
      className="max-w-md"
      title={`Place a legal hold on ${account.name}`}
      description="While the hold stands nothing of this account is deleted, not even from its trash. The client is not told; the trail records who placed it and why."
      onSubmit={(e) => void submit(e)}
      formLabel="Place a legal hold"
    >
      <FormField
        id={fieldId}
        label="Reason"
        hint="A matter, a subpoena, an audit: what a colleague needs to know."
        error={errorOf(problem, "reason")}
        required
      >
        <Textarea rows={3} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
      </FormField>
      <FormDialogFooter problem={problem} pending={place.isPending} submitLabel="Place hold" pendingLabel="Placing…" />
    </FormDialog>
  );
}
