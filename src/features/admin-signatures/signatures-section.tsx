import { useState } from "react";
import { useSearchParams } from "react-router";
import { ArrowLeft, Download, Eye, FileSignature } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { formatCalendarDate, formatDate } from "@/lib/format.ts";
import { KIND_LABELS, signerColor } from "@/lib/signature-fields.ts";
import { trpc } from "@/lib/trpc.ts";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import type { AdminSignatureListItem } from "@server/domains/signatures/schemas.ts";
import { NewSignatureRequest } from "./new-signature-request.tsx";
import { SignatureRequestDetail } from "./signature-request-detail.tsx";
import { SignatureStatusBadge, SignerStatus } from "./status-badge.tsx";

type View = { kind: "list" } | { kind: "new" } | { kind: "open"; id: string };

/** A client's signature requests on its record (issue 35): ask for one, follow each signer, remind, void, download the sealed PDF. */
export function SignaturesSection({ account }: { account: FirmAccount }) {
  // An Inbox item about a request opens it here (`&signature_request=`).
  const [searchParams] = useSearchParams();
  const [view, setView] = useState<View>(() => {
    const named = searchParams.get("signature_request");
    return named ? { kind: "open", id: named } : { kind: "list" };
  });

  if (view.kind === "open") {
    return (
      <div className="grid min-w-0 gap-4">
        <Button variant="ghost" size="sm" className="w-fit" onClick={() => setView({ kind: "list" })}>
          <ArrowLeft aria-hidden="true" />
          All signature requests
        </Button>
        <SignatureRequestDetail id={view.id} />
      </div>
    );
  }

  return (
    <section aria-labelledby="signatures-section-heading" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="signatures-section-heading" className="text-xl font-semibold">
            Signatures
          </h2>
          <p className="text-sm text-muted-foreground">Engagement letters, Form 8879 and other PDFs signed in the portal and sealed.</p>
        </div>
        {view.kind === "list" && (
          <Button variant="accent" onClick={() => setView({ kind: "new" })}>
            <FileSignature aria-hidden="true" />
            Request signature
          </Button>
        )}
      </div>
      {view.kind === "new" ? (
        <NewSignatureRequest account={account} onDone={(id) => setView(id ? { kind: "open", id } : { kind: "list" })} />
      ) : (
        <SignatureList accountId={account.id} onOpen={(id) => setView({ kind: "open", id })} />
      )}
    </section>
  );
}

function SignatureList({ accountId, onOpen }: { accountId: string; onOpen: (id: string) => void }) {
  const list = trpc.admin.signatures.list.useQuery({ account_id: accountId }, { retry: false });
  if (list.isPending) return <Spinner label="Loading signature requests…" />;
  if (list.isError) return <LoadError message="Failed to load signature requests" onRetry={() => void list.refetch()} isRetrying={list.isFetching} />;
  if (list.data.length === 0) return <p className="text-sm text-muted-foreground">No signature requests for this client yet.</p>;
  return (
    <ul aria-label="Signature requests" className="grid divide-y overflow-hidden rounded-xl border bg-card">
      {list.data.map((r) => (
        <SignatureRow key={r.id} request={r} onOpen={() => onOpen(r.id)} />
      ))}
    </ul>
  );
}

function SignatureRow({ request, onOpen }: { request: AdminSignatureListItem; onOpen: () => void }) {
  const signed = request.signers.filter((s) => s.status === "signed").length;
  return (
    <li aria-label={request.title} className="grid min-w-0 gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-start">
      <div className="grid min-w-0 gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words [overflow-wrap:anywhere]">{request.title}</span>
          <SignatureStatusBadge status={request.status} />
          <Badge variant="muted">{KIND_LABELS[request.kind]}</Badge>
        </div>
        <span className="text-sm text-muted-foreground">
          Sent {formatDate(request.created_at)}
          {request.due_date && ` · Due ${formatCalendarDate(request.due_date)}`}
          {` · ${signed} of ${request.signers.length} signed`}
          {request.order === "sequential" && " · in order"}
        </span>
        <ul aria-label={`Signers of ${request.title}`} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {request.signers.map((s) => (
            <li key={s.index} className="flex min-w-0 items-center gap-1.5">
              <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: signerColor(s.index) }} />
              <span className="min-w-0 break-words">{s.name}:</span>
              <SignerStatus status={s.status} signedAt={s.signed_at} />
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        {request.status === "completed" && request.sealed_document_id && (
          <Button asChild variant="outline" size="sm">
            <a
              href={`/api/admin/documents/${request.sealed_document_id}/download`}
              download
              aria-label={`Download the sealed PDF of ${request.title}`}
            >
              <Download aria-hidden="true" />
              Sealed PDF
            </a>
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={onOpen} aria-label={`Open ${request.title}`}>
          <Eye aria-hidden="true" />
          Open
        </Button>
      </div>
    </li>
  );
}
