import { useState } from "react";
import { UserRoundCog } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { DialogFrame, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { useAdminMe } from "@/lib/use-admin-me.ts";
import { useAssignableStaff, useClientAssignees, useInvitedStaff, useSetAssignees } from "./use-client-assignees.ts";

/**
 * Who at the firm looks after this client (docs/decisions.md, "Assigned accounts (issue 33)"): staff
 * without the all_clients right see only the clients assigned to them. Changing it needs the
 * manage_clients right, and the list of people to choose from the Team's (the staff right).
 */
export function ClientAssignees({ userId, clientName }: { userId: string; clientName: string }) {
  const assignees = useClientAssignees(userId);
  const { may } = useAdminMe();
  const mayEdit = may("manage_clients") && may("staff");
  const names = [
    ...(assignees.data?.assignees.map((a) => a.name) ?? []),
    ...(assignees.data?.invited.map((i) => `${i.name} (invited, from when they accept)`) ?? []),
  ];

  return (
    <section aria-labelledby="assignees-heading" className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-[1fr_auto] sm:items-center sm:p-6">
      <div className="grid min-w-0 gap-1">
        <h2 id="assignees-heading" className="text-base font-semibold">
          Assigned to
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="assignee-names">
          {assignees.isPending ? "Loading…" : names.length > 0 ? names.join(", ") : "Nobody yet: only people who see all clients reach this one."}
        </p>
      </div>
      {mayEdit && assignees.data && (
        <AssigneesDialog
          accountId={assignees.data.account_id}
          clientName={clientName}
          current={assignees.data.assignees.map((a) => a.id)}
          currentInvited={assignees.data.invited.map((i) => i.invitation_id)}
        />
      )}
    </section>
  );
}

type AssigneesDialogProps = { accountId: string; clientName: string; current: string[]; currentInvited: string[] };

function AssigneesDialog({ accountId, clientName, current, currentInvited }: AssigneesDialogProps) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>(current);
  const [chosenInvited, setChosenInvited] = useState<string[]>(currentInvited);
  const [problem, setProblem] = useState<string | null>(null);
  const staff = useAssignableStaff(open);
  const invitedStaff = useInvitedStaff(open);
  const save = useSetAssignees();

  function openChange(next: boolean) {
    if (next) {
      setChosen(current);
      setChosenInvited(currentInvited);
      setProblem(null);
    }
    setOpen(next);
  }

  function submit() {
    save.mutate(
      { id: accountId, user_ids: chosen, invitation_ids: chosenInvited },
      {
        onSuccess: () => {
          toast.success(`Assignees of ${clientName} saved.`);
          setOpen(false);
        },
        onError: (err) => setProblem(errorDetail(err) ?? "The change could not be saved."),
      },
    );
  }

  const people = (staff.data ?? []).filter((member) => member.active);
  return (
    <DialogFrame
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button variant="outline" size="sm">
          <UserRoundCog aria-hidden="true" />
          Change assignees
        </Button>
      }
      className="max-w-lg"
      title={<>Assignees of {clientName}</>}
      description="Staff without “All clients” see only the clients assigned to them, from their next click."
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">The firm’s people</legend>
        {staff.isPending && <p className="text-sm text-muted-foreground">Loading…</p>}
        {people.map((member) => (
          <label key={member.id} htmlFor={`assignee-${member.id}`} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-8">
            <input
              id={`assignee-${member.id}`}
              type="checkbox"
              className="size-4 accent-primary"
              checked={chosen.includes(member.id)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, member.id] : chosen.filter((id) => id !== member.id))}
            />
            <span className="min-w-0 truncate">
              {member.name} <span className="text-muted-foreground">· {member.role}</span>
            </span>
          </label>
        ))}
        {(invitedStaff.data ?? []).map((invitation) => (
          <label key={invitation.id} htmlFor={`assignee-invited-${invitation.id}`} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-8">
            <input
              id={`assignee-invited-${invitation.id}`}
              type="checkbox"
              className="size-4 accent-primary"
              checked={chosenInvited.includes(invitation.id)}
              onChange={(e) =>
                setChosenInvited(e.target.checked ? [...chosenInvited, invitation.id] : chosenInvited.filter((id) => id !== invitation.id))
              }
            />
            <span className="min-w-0 truncate">
              {invitation.name} <span className="text-muted-foreground">· {invitation.role}, invited</span>
            </span>
          </label>
        ))}
      </fieldset>
      {(invitedStaff.data ?? []).length > 0 && (
        <p className="text-sm text-muted-foreground">Someone invited and not signed up yet looks after this client from the moment they accept.</p>
      )}
      <FormDialogFooter problem={problem} pending={save.isPending} submitLabel="Save" pendingLabel="Saving..." onClick={submit} />
    </DialogFrame>
  );
}
