import { Crown, Mail, ShieldCheck, UserCheck, UserX, X } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import type { StaffInvitation, StaffMember, StaffRole } from "@server/domains/staff/schemas.ts";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { EditStaffDialog } from "./edit-staff-dialog.tsx";
import { InviteStaffDialog } from "./invite-staff-dialog.tsx";
import { RIGHT_LABELS } from "./rights-fieldset.tsx";
import { useAdminMe } from "@/lib/use-admin-me.ts";
import { useResendStaffInvitation, useRevokeStaffInvitation, useStaff, useStaffInvitations, useUpdateStaff } from "./use-staff.ts";

const ROLE_LABELS: Record<StaffRole, string> = { owner: "Owner", admin: "Admin", staff: "Staff" };

/** The Team tab: the firm's people with their role, rights and whether active; invite, edit rights, deactivate. */
export function TeamTab({ me }: { me: { id: string; role: StaffRole } }) {
  const staff = useStaff();
  const invitations = useStaffInvitations();
  const managesAdmins = me.role !== "staff";

  return (
    <section aria-labelledby="team-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="team-heading" className="text-lg font-semibold">
            Team
          </h2>
          <p className="text-sm text-muted-foreground">
            The firm's people: each signs in at /admin with a second factor and sees what their rights allow.
          </p>
        </div>
        <InviteStaffDialog mayInviteAdmins={managesAdmins} />
      </div>
      {staff.isPending ? (
        <Spinner label="Loading the team…" />
      ) : staff.data ? (
        <ul aria-label="Team members" className="grid divide-y rounded-lg border">
          {staff.data.map((member) => (
            <MemberRow key={member.id} member={member} me={me} />
          ))}
        </ul>
      ) : (
        <LoadError message="Failed to load the team" onRetry={() => void staff.refetch()} isRetrying={staff.isFetching} />
      )}
      {invitations.data && invitations.data.length > 0 && (
        <div className="grid gap-2">
          <h3 className="text-base font-semibold">Invited</h3>
          <ul aria-label="Team invitations" className="grid divide-y rounded-lg border">
            {invitations.data.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function InvitationRow({ invitation }: { invitation: StaffInvitation }) {
  const revoke = useRevokeStaffInvitation();
  const resend = useResendStaffInvitation();
  return (
    <li className="grid gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
      <div className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <TruncatedText text={invitation.name} className="font-medium" />
          <Badge variant="muted">{invitation.status === "expired" ? "Expired" : `Invited until ${formatDate(invitation.expires_at)}`}</Badge>
        </div>
        <TruncatedText text={invitation.email} className="text-sm text-muted-foreground" />
        <p className="text-sm text-muted-foreground">
          {invitation.role === "admin" ? "Admin: every right" : invitation.rights.map((r) => RIGHT_LABELS[r]).join(", ") || "No rights yet"}
        </p>
        {invitation.assigned_accounts.length > 0 && (
          <p className="text-sm break-words text-muted-foreground" aria-label={`Clients ${invitation.name} will look after`}>
            Will look after, once they accept: {invitation.assigned_accounts.map((a) => a.name).join(", ")}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        <Button
          variant="outline"
          size="sm"
          aria-label={`Resend invitation to ${invitation.name}`}
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(
              { id: invitation.id },
              {
                onSuccess: () => toast.success(`A new invitation is on its way to ${invitation.email}. The earlier link no longer works.`),
                onError: (err) => toast.error(errorDetail(err) ?? "The invitation could not be resent."),
              },
            )
          }
        >
          <Mail aria-hidden="true" />
          Resend invitation
        </Button>
        <ConfirmAction
          title={`Revoke the invitation of ${invitation.name}?`}
          question="Its link stops working at once."
          confirmLabel="Revoke"
          onConfirm={() =>
            revoke.mutate({ id: invitation.id }, { onError: (err) => toast.error(errorDetail(err) ?? "The invitation could not be revoked.") })
          }
          trigger={
            <Button variant="ghost-destructive" size="sm" aria-label={`Revoke the invitation of ${invitation.name}`}>
              <X aria-hidden="true" />
              Revoke
            </Button>
          }
        />
      </div>
    </li>
  );
}

function MemberRow({ member, me }: { member: StaffMember; me: { id: string; role: StaffRole } }) {
  const update = useUpdateStaff();
  const isOwner = member.role === "owner";
  // What the server allows this caller (staff/service.ts): staff manage staff only; nobody deactivates themselves or the owner.
  const mayEdit = !isOwner && (me.role !== "staff" || member.role === "staff");
  const change = (input: { active?: boolean; role?: "owner" }, done: string) =>
    update.mutate(
      { id: member.id, ...input },
      { onSuccess: () => toast.success(done), onError: (err) => toast.error(errorDetail(err) ?? "The change could not be saved.") },
    );

  return (
    <li className="grid gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
      <div className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <TruncatedText text={member.name} className="font-medium" />
          <Badge variant={isOwner ? "success" : "secondary"}>{ROLE_LABELS[member.role]}</Badge>
          {!member.active && <Badge variant="muted">Deactivated</Badge>}
        </div>
        <TruncatedText text={member.email} className="text-sm text-muted-foreground" />
        <p className="text-sm text-muted-foreground">
          {member.role === "staff"
            ? member.rights.length > 0
              ? member.rights.map((r) => RIGHT_LABELS[r]).join(", ")
              : "No rights yet"
            : "Every right"}
        </p>
        <AssignedAccounts member={member} />
      </div>
      {(mayEdit || (me.role === "owner" && !isOwner && member.active)) && (
        <div className="flex flex-wrap gap-2 sm:justify-end">
          {mayEdit && member.active && <EditStaffDialog member={member} mayChangeRole={me.role !== "staff"} />}
          {me.role === "owner" && !isOwner && member.active && (
            <ConfirmAction
              title={`Make ${member.name} the owner?`}
              question="Ownership moves to them and you become an admin. Only the owner can give it back."
              confirmLabel="Transfer ownership"
              onConfirm={() => change({ role: "owner" }, `${member.name} is now the owner.`)}
              trigger={
                <Button variant="outline" size="sm" aria-label={`Make owner: ${member.name}`}>
                  <Crown aria-hidden="true" />
                  Make owner
                </Button>
              }
            />
          )}
          {mayEdit &&
            member.id !== me.id &&
            (member.active ? (
              <ConfirmAction
                title={`Deactivate ${member.name}?`}
                question="They are signed out everywhere at once and cannot sign in; what they did stays in the activity trail."
                confirmLabel="Deactivate"
                onConfirm={() => change({ active: false }, `${member.name} is deactivated.`)}
                trigger={
                  <Button variant="ghost-destructive" size="sm" aria-label={`Deactivate ${member.name}`}>
                    <UserX aria-hidden="true" />
                    Deactivate
                  </Button>
                }
              />
            ) : (
              <Button
                variant="outline"
                size="sm"
                aria-label={`Reactivate ${member.name}`}
                onClick={() => change({ active: true }, `${member.name} is active again.`)}
              >
                <UserCheck aria-hidden="true" />
                Reactivate
              </Button>
            ))}
        </div>
      )}
    </li>
  );
}

/**
 * The client accounts assigned to a person (those the viewer reaches), each a link to its page and,
 * for those holding the activity right, to who can see it. Owners, admins and all_clients see every
 * client whatever is assigned to them.
 */
function AssignedAccounts({ member }: { member: StaffMember }) {
  const { may } = useAdminMe();
  const accounts = member.assigned_accounts;
  const seesAll = member.role !== "staff" || member.rights.includes("all_clients");
  if (accounts.length === 0) {
    return member.role === "staff" && !seesAll ? <p className="text-sm text-muted-foreground">No assigned clients: sees no client yet</p> : null;
  }
  return (
    <div className="grid gap-1 text-sm">
      <p className="text-muted-foreground">
        {accounts.length === 1 ? "1 assigned client" : `${accounts.length} assigned clients`}
        {seesAll && " (sees every client)"}
      </p>
      <ul aria-label={`Clients assigned to ${member.name}`} className="flex flex-wrap gap-x-3 gap-y-1">
        {accounts.map((account) => (
          <li key={account.id} className="flex min-w-0 items-center gap-1">
            <Link to={`/admin/accounts/${account.id}`} className="max-w-56 truncate font-medium underline underline-offset-4">
              {account.name}
            </Link>
            {may("activity") && (
              <Link
                to={`/admin/accounts/${account.id}/access`}
                aria-label={`Who can see ${account.name}`}
                title={`Who can see ${account.name}`}
                className="inline-flex size-6 items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground max-sm:size-8"
              >
                <ShieldCheck aria-hidden="true" className="size-4" />
              </Link>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
