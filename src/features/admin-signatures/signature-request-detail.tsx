import { type FormEvent, useState } from "react";
import { BellRing, Download, IdCard, Ban } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormDialog } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatCalendarDate, formatDate, formatDateTime } from "@/lib/format.ts";
import { KIND_LABELS, signerColor } from "@/lib/signature-fields.ts";
import { trpc } from "@/lib/trpc.ts";
import type { AdminSignatureRequest } from "@server/domains/signatures/schemas.ts";
import { SignatureStatusBadge, SignerStatus } from "./status-badge.tsx";

/** The request's own audit events (server/domains/signatures/common.ts, record()), in words. */
const EVENT_LABELS: Record<string, string> = {
  create: "Sent for signature",
  view: "Opened",
  consent: "Agreed to sign electronically",
  verify: "Identity confirmed",
  sign: "Signed",
  decline: "Declined",
  void: "Voided",
  remind: "Reminder sent",
  in_person: "Photo ID checked in person",
  complete: "Sealed and completed",
};

const IDENTITY_LABELS = { email_code: "Email code", second_factor: "Second factor", kba: "KBA", in_person: "In person, photo ID" } as const;

/** One request as the firm follows it: each signer's steps, the request's own audit trail, and what can still be done. */
export function SignatureRequestDetail({ id }: { id: string }) {
  const request = trpc.admin.signatures.get.useQuery({ id }, { retry: false });
  if (request.isPending) return <Spinner label="Loading the signature request…" />;
  if (request.isError)
    return <LoadError message="Failed to load the signature request" onRetry={() => void request.refetch()} isRetrying={request.isFetching} />;
  return <Detail request={request.data} />;
}

function useRefresh() {
  const utils = trpc.useUtils();
  return (next: AdminSignatureRequest) => {
    utils.admin.signatures.get.setData({ id: next.id }, next);
    void utils.admin.signatures.list.invalidate();
  };
}

function Detail({ request }: { request: AdminSignatureRequest }) {
  const refresh = useRefresh();
  const remind = trpc.admin.signatures.remind.useMutation();
  const open = request.status === "sent" || request.status === "partially_signed";

  const onRemind = async () => {
    try {
      const { reminded, ...next } = await remind.mutateAsync({ id: request.id });
      refresh(next);
      toast.success(`Reminder sent to ${reminded} signer${reminded === 1 ? "" : "s"}`);
    } catch (err) {
      toast.error(errorDetail(err) ?? "The reminder could not be sent");
    }
  };

  return (
    <article aria-labelledby="signature-request-heading" className="grid min-w-0 gap-4">
      <div className="grid min-w-0 gap-3 rounded-xl border bg-card p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="signature-request-heading" className="min-w-0 text-xl font-semibold break-words [overflow-wrap:anywhere]">
            {request.title}
          </h2>
          <SignatureStatusBadge status={request.status} />
          <Badge variant="muted">{KIND_LABELS[request.kind]}</Badge>
        </div>
        <p className="text-sm text-muted-foreground">
          Sent {formatDate(request.created_at)}
          {request.due_date && ` · Due ${formatCalendarDate(request.due_date)}`}
          {` · ${request.order === "sequential" ? "Signed in order" : "Signed in any order"}`}
          {request.completed_at && ` · Completed ${formatDateTime(request.completed_at)}`}
        </p>
        {request.message && <p className="text-sm whitespace-pre-line">{request.message}</p>}
        {request.void_reason && <p className="text-sm">Voided: {request.void_reason}</p>}
        {request.remote_signing_note && (
          <p role="note" className="rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm">
            {request.remote_signing_note}. Record each signer&apos;s photo ID below when they sign at your office.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {request.status === "completed" && request.sealed_document_id && (
            <Button asChild variant="accent" size="sm">
              <a href={`/api/admin/documents/${request.sealed_document_id}/download`} download>
                <Download aria-hidden="true" />
                Download sealed PDF
              </a>
            </Button>
          )}
          {open && (
            <Button variant="outline" size="sm" disabled={remind.isPending} onClick={() => void onRemind()}>
              <BellRing aria-hidden="true" />
              {remind.isPending ? "Sending…" : "Remind"}
            </Button>
          )}
          {open && <VoidDialog request={request} onVoided={refresh} />}
        </div>
      </div>

      <section aria-labelledby="signers-heading" className="grid min-w-0 gap-3">
        <h3 id="signers-heading" className="font-semibold">
          Signers
        </h3>
        <ul className="grid divide-y overflow-hidden rounded-xl border bg-card">
          {request.signers.map((s) => (
            <li key={s.index} aria-label={s.name} className="grid min-w-0 gap-2 p-4">
              <div className="flex flex-wrap items-center gap-2">
                <span aria-hidden="true" className="size-3 shrink-0 rounded-full" style={{ backgroundColor: signerColor(s.index) }} />
                <span className="font-medium break-words">{s.name}</span>
                <span className="text-sm break-all text-muted-foreground">{s.email}</span>
                <span className="text-sm">
                  <SignerStatus status={s.status} signedAt={s.signed_at} />
                </span>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
                <Step label="Viewed" at={s.viewed_at} />
                <Step label="Agreed to e-sign" at={s.consented_at} />
                <dt className="text-muted-foreground">Identity</dt>
                <dd className="min-w-0 break-words">
                  {s.identity_method
                    ? `${IDENTITY_LABELS[s.identity_method]}${s.identity_checked_at ? `, ${formatDateTime(s.identity_checked_at)}` : ""}`
                    : "—"}
                </dd>
                <Step label={s.status === "declined" ? "Declined" : "Signed"} at={s.status === "declined" ? s.declined_at : s.signed_at} />
              </dl>
              {s.awaiting_sign_up && s.status === "pending" && (
                <p className="text-sm text-muted-foreground">
                  Invited, not signed up yet: this waits for them and is theirs to sign once they accept their invitation.
                </p>
              )}
              {s.decline_reason && <p className="text-sm">Reason: {s.decline_reason}</p>}
              {s.identity_result && s.identity_method === "in_person" && <p className="text-sm text-muted-foreground">{s.identity_result}</p>}
              {open && request.kind === "form_8879" && s.status === "pending" && s.identity_method !== "in_person" && (
                <InPersonForm request={request} index={s.index} name={s.name} onDone={refresh} />
              )}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="events-heading" className="grid min-w-0 gap-3">
        <h3 id="events-heading" className="font-semibold">
          Audit trail
        </h3>
        <ol className="grid gap-1 rounded-xl border bg-card p-4 text-sm">
          {request.events.map((e, i) => (
            <li key={i} className="flex min-w-0 flex-wrap gap-x-3">
              <time dateTime={new Date(e.at).toISOString()} className="text-muted-foreground tabular-nums">
                {formatDateTime(e.at)}
              </time>
              <span className="min-w-0 break-words">
                {EVENT_LABELS[e.action] ?? e.action.replace(/_/g, " ")}
                {e.signer !== null && ` · ${request.signers[e.signer]?.name ?? `signer ${e.signer + 1}`}`}
                {` · by ${e.actor}`}
              </span>
            </li>
          ))}
        </ol>
      </section>
    </article>
  );
}

function Step({ label, at }: { label: string; at: Date | null }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular-nums">{at ? formatDateTime(at) : "—"}</dd>
    </>
  );
}

function VoidDialog({ request, onVoided }: { request: AdminSignatureRequest; onVoided: (next: AdminSignatureRequest) => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const voidRequest = trpc.admin.signatures.void.useMutation();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      onVoided(await voidRequest.mutateAsync({ id: request.id, reason: reason.trim() }));
      setOpen(false);
      toast.success(`“${request.title}” voided`);
    } catch (err) {
      setError(errorDetail(err) ?? "Voiding failed");
    }
  };
  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="ghost-destructive" size="sm">
          <Ban aria-hidden="true" />
          Void
        </Button>
      }
      title="Void this signature request?"
      description="The signers can no longer sign it; those still to sign are emailed that it was withdrawn."
      onSubmit={(e) => void onSubmit(e)}
    >
      <FormField label="Reason (optional)">
        <Textarea rows={3} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
      </FormField>
      <FormAlert message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={() => setOpen(false)}>
          Keep it
        </Button>
        <Button type="submit" variant="destructive" disabled={voidRequest.isPending}>
          {voidRequest.isPending ? "Voiding…" : "Void request"}
        </Button>
      </div>
    </FormDialog>
  );
}

/** Form 8879 without a KBA provider: the firm saw the signer and checked a photo ID. */
function InPersonForm({
  request,
  index,
  name,
  onDone,
}: {
  request: AdminSignatureRequest;
  index: number;
  name: string;
  onDone: (next: AdminSignatureRequest) => void;
}) {
  const [idDocument, setIdDocument] = useState("");
  const [error, setError] = useState<string | undefined>();
  const record = trpc.admin.signatures.recordInPerson.useMutation();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      onDone(await record.mutateAsync({ id: request.id, index, id_document: idDocument }));
      toast.success(`${name}: signing in person, photo ID recorded`);
    } catch (err) {
      setError(errorDetail(err) ?? "Recording failed");
    }
  };
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-2 rounded-md border p-3" aria-label={`In-person ID check for ${name}`}>
      <p className="text-sm">Signed in person, photo ID checked: record it, then {name} signs on this device or their own.</p>
      <div className="flex flex-wrap items-end gap-2">
        <FormField label="Photo ID checked" error={error} className="min-w-48 flex-1">
          <Input value={idDocument} maxLength={200} placeholder="Driver's license" onChange={(e) => setIdDocument(e.target.value)} />
        </FormField>
        <Button type="submit" variant="outline" disabled={record.isPending}>
          <IdCard aria-hidden="true" />
          Record ID check
        </Button>
      </div>
    </form>
  );
}
