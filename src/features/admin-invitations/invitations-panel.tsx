import { MailPlus, RotateCw, X } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDate } from "@/lib/format.ts";
import type { InvitationItem, InvitationStatus } from "@server/domains/invitations/schemas.ts";
import { InviteClientDialog } from "./invite-client-dialog.tsx";
import { useInvitations } from "./use-invitations.ts";
import { useResendInvitation } from "./use-resend-invitation.ts";
import { useRevokeInvitation } from "./use-revoke-invitation.ts";

const STATUS: Record<InvitationStatus, { label: string; variant: "secondary" | "success" | "muted" }> = {
  pending: { label: "Pending", variant: "secondary" },
  expired: { label: "Expired", variant: "muted" },
  accepted: { label: "Accepted", variant: "success" },
  revoked: { label: "Revoked", variant: "muted" },
};

/** The Users tab's invitations: invite a client, and the invitations sent, with Resend and Revoke while they are open. */
export function InvitationsPanel() {
  const invitations = useInvitations();

  return (
    <section aria-labelledby="invitations-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="invitations-heading" className="text-lg font-semibold">
            Invitations
          </h2>
          <p className="text-sm text-muted-foreground">Invite clients to the portal; they choose their username and password from the email.</p>
        </div>
        <InviteClientDialog />
      </div>
      {invitations.isPending ? (
        <Spinner label="Loading the invitations…" />
      ) : invitations.data ? (
        invitations.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No invitations yet.</p>
        ) : (
          <ul aria-label="Invitations" className="grid divide-y rounded-lg border">
            {invitations.data.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} />
            ))}
          </ul>
        )
      ) : (
        <LoadError message="Failed to load the invitations" onRetry={() => void invitations.refetch()} isRetrying={invitations.isFetching} />
      )}
    </section>
  );
}

function InvitationRow({ invitation }: { invitation: InvitationItem }) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const status = STATUS[invitation.status];
  const open = invitation.status === "pending" || invitation.status === "expired";

  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between sm:p-4" aria-label={`Invitation for ${invitation.name}`}>
      <div className="grid min-w-0 gap-0.5">
        <div className="flex min-w-0 items-center gap-2">
          <TruncatedText text={invitation.name} className="font-medium" />
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
        <TruncatedText text={invitation.email} className="text-sm text-muted-foreground" />
        <p className="text-xs text-muted-foreground">{when(invitation)}</p>
      </div>
      {open && (
        <div className="flex shrink-0 gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={resend.isPending}
            aria-label={`Resend the invitation to ${invitation.email}`}
            onClick={() => resend.mutate({ id: invitation.id })}
          >
            {resend.isPending ? <RotateCw aria-hidden="true" className="animate-spin" /> : <MailPlus aria-hidden="true" />}
            Resend
          </Button>
          <ConfirmAction
            title={`Revoke the invitation for ${invitation.name}?`}
            question="The link in their email stops working. You can invite them again later."
            confirmLabel="Revoke invitation"
            onConfirm={() => revoke.mutate({ id: invitation.id })}
            trigger={
              <Button variant="ghost-destructive" size="sm" disabled={revoke.isPending} aria-label={`Revoke the invitation for ${invitation.email}`}>
                <X aria-hidden="true" />
                Revoke
              </Button>
            }
          />
        </div>
      )}
    </li>
  );
}

function when(invitation: InvitationItem): string {
  if (invitation.status === "accepted" && invitation.accepted_at) return `Accepted ${formatDate(invitation.accepted_at)}`;
  const sent = invitation.last_sent_at ? `Sent ${formatDate(invitation.last_sent_at)}` : "Sending…";
  const expiry = invitation.status === "expired" ? `expired ${formatDate(invitation.expires_at)}` : `expires ${formatDate(invitation.expires_at)}`;
  return `${sent} · ${expiry}`;
}
