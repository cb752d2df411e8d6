import { ChevronRight, FileSignature } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { DashboardItem, DashboardItemsCard } from "@/components/dashboard-items-card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { formatCalendarDate, formatDate } from "@/lib/format.ts";
import type { ClientSignatureRequest } from "@server/domains/signatures/schemas.ts";
import { isWaitingOn, useOwnSignatureRequests } from "./use-signatures.ts";

/**
 * The documents the firm asks this person to sign, first thing on the dashboard: the ones waiting
 * for them first, each with where it stands and a link to sign. Nothing shows while there are none.
 */
export function SignaturesCard() {
  const requests = useOwnSignatureRequests();
  if (requests.isPending) return null;
  if (requests.isError) {
    return <LoadError message="Failed to load your signature requests" onRetry={() => void requests.refetch()} isRetrying={requests.isFetching} />;
  }
  if (requests.data.length === 0) return null;
  const list = [...requests.data].sort((a, b) => Number(isWaitingOn(b)) - Number(isWaitingOn(a)));
  const yourTurn = list.filter((r) => isWaitingOn(r) && r.me.may_sign).length;

  return (
    <DashboardItemsCard
      headingId="signatures-heading"
      icon={FileSignature}
      title="Signatures"
      description={
        yourTurn > 0
          ? `Your firm is waiting for your signature on ${yourTurn === 1 ? "one document" : `${yourTurn} documents`}.`
          : "Nothing is waiting for your signature right now."
      }
      listLabel="Documents to sign"
    >
      {list.map((request) => (
        <DashboardItem key={request.id} to={`/signatures/${request.id}`} title={request.title} badge={<ClientStatusBadge request={request} />}>
          <span className="text-sm text-muted-foreground">{summary(request)}</span>
          {isWaitingOn(request) && request.me.may_sign && (
            <span className="flex items-center text-sm font-medium text-accent-soft-foreground">
              Review and sign
              <ChevronRight aria-hidden="true" className="size-4" />
            </span>
          )}
        </DashboardItem>
      ))}
    </DashboardItemsCard>
  );
}

function summary(request: ClientSignatureRequest): string {
  const signed = request.signers.filter((s) => s.status === "signed").length;
  const parts = [
    request.completed_at
      ? `Completed on ${formatDate(request.completed_at)}`
      : request.due_date
        ? `Due ${formatCalendarDate(request.due_date)}`
        : "No due date",
  ];
  if (request.signers.length > 1) parts.push(`${signed} of ${request.signers.length} signed`);
  return parts.join(" · ");
}

/** Where a request stands for this person. */
export function ClientStatusBadge({ request }: { request: ClientSignatureRequest }) {
  if (request.status === "voided") return <Badge variant="muted">Withdrawn by your firm</Badge>;
  if (request.status === "declined") return <Badge className="border-destructive/30 bg-destructive/10 text-destructive">Declined</Badge>;
  if (request.status === "completed") return <Badge variant="success">Signed and sealed</Badge>;
  if (request.me.status === "signed") return <Badge variant="muted">Signed · waiting for others</Badge>;
  if (!request.me.may_sign) return <Badge variant="muted">Waiting for others to sign first</Badge>;
  return <Badge variant="success">To sign</Badge>;
}
