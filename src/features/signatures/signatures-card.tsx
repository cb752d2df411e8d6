import { ChevronRight, FileSignature } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
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
    <Card aria-labelledby="signatures-heading" role="region" className="min-w-0 border-accent/30">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="signatures-heading" className="flex items-center gap-2">
            <FileSignature aria-hidden="true" className="size-5 text-accent" />
            Signatures
          </h2>
        </CardTitle>
        <CardDescription>
          {yourTurn > 0
            ? `Your firm is waiting for your signature on ${yourTurn === 1 ? "one document" : `${yourTurn} documents`}.`
            : "Nothing is waiting for your signature right now."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-label="Documents to sign" className="grid gap-3">
          {list.map((request) => (
            <li key={request.id}>
              <Link
                to={`/signatures/${request.id}`}
                className="grid min-w-0 gap-2 rounded-lg border bg-card p-4 transition-colors hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <span className="flex flex-wrap items-start justify-between gap-2">
                  <span className="min-w-0 font-medium break-words [overflow-wrap:anywhere]">{request.title}</span>
                  <ClientStatusBadge request={request} />
                </span>
                <span className="text-sm text-muted-foreground">{summary(request)}</span>
                {isWaitingOn(request) && request.me.may_sign && (
                  <span className="flex items-center text-sm font-medium text-accent-soft-foreground">
                    Review and sign
                    <ChevronRight aria-hidden="true" className="size-4" />
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
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
