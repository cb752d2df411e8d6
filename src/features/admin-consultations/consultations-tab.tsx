import { Check, RotateCcw, Send, UserPlus } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDate, formatDateTime } from "@/lib/format.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import { type ConsultationRequest, PREFERRED_TIME_OPTIONS } from "@server/domains/consultation/schemas.ts";
import { useAdminConsultations } from "./use-admin-consultations.ts";
import { useResendConsultationEmail } from "./use-resend-consultation-email.ts";
import { useInviteConsultation } from "./use-invite-consultation.ts";
import { useSetConsultationHandled } from "./use-set-consultation-handled.ts";

// The server names the service as the site's list does now; a service removed since shows its id.
const serviceLabel = (c: ConsultationRequest) => c.service_label ?? c.service ?? "—";
const timeLabel = (value: string | null) => PREFERRED_TIME_OPTIONS.find((o) => o.value === value)?.label ?? value;

/** A preferred date ("2025-03-04") is a calendar day, not an instant: shown as typed, in the user's locale. */
function formatCalendarDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return y && m && d ? formatDate(new Date(y, m - 1, d)) : day;
}

export function ConsultationsTab() {
  const paging = useServerPaging();
  const consultations = useAdminConsultations(paging);
  const setHandled = useSetConsultationHandled();
  const resendEmail = useResendConsultationEmail();
  const invite = useInviteConsultation();

  const columns: DataTableColumn<ConsultationRequest>[] = [
    {
      header: "Received",
      className: "whitespace-nowrap tabular-nums",
      cell: (c) => <time dateTime={new Date(c.created_at).toISOString()}>{formatDateTime(c.created_at)}</time>,
    },
    {
      header: "Contact",
      card: "title",
      cell: (c) => (
        <div className="sm:min-w-36 sm:max-w-56">
          <TruncatedText text={c.name} className="font-medium" />
          <a className="block truncate text-accent underline-offset-4 hover:underline" href={`mailto:${c.email}`} title={c.email}>
            {c.email}
          </a>
          <p className="text-muted-foreground tabular-nums">{c.phone}</p>
        </div>
      ),
    },
    {
      header: "Request",
      cell: (c) => (
        <div className="min-w-0 sm:max-w-96 sm:min-w-56">
          <p className="font-medium">{serviceLabel(c)}</p>
          {(c.preferredDate || c.preferredTime) && (
            <p className="text-muted-foreground">
              Preferred: {[c.preferredDate && formatCalendarDay(c.preferredDate), timeLabel(c.preferredTime)].filter(Boolean).join(", ")}
            </p>
          )}
          {c.message && <p className="mt-1 whitespace-pre-line wrap-anywhere">{c.message}</p>}
        </div>
      ),
    },
    {
      header: "Status",
      cell: (c) => (c.handled_at ? <Badge variant="muted">Handled</Badge> : <Badge variant="success">New</Badge>),
    },
    {
      header: "Email to firm",
      cell: (c) =>
        c.email_sent_at ? (
          <span className="text-muted-foreground">
            Sent <time dateTime={new Date(c.email_sent_at).toISOString()}>{formatDateTime(c.email_sent_at)}</time>
          </span>
        ) : c.email_failed_at ? (
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-destructive">Not sent</span>
            <Button
              variant="outline"
              size="sm"
              disabled={resendEmail.isPending}
              onClick={() => resendEmail.mutate({ id: c.id })}
              aria-label={`Resend the notification email, request from ${c.name}`}
            >
              <Send aria-hidden="true" />
              Resend
            </Button>
          </div>
        ) : (
          <span className="text-muted-foreground">Sending…</span>
        ),
    },
    {
      header: "Actions",
      className: "text-right",
      card: "actions",
      cell: (c) => (
        <div className="flex flex-wrap justify-end gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={invite.isPending}
            onClick={() => invite.mutate({ id: c.id })}
            aria-label={`Invite as client, request from ${c.name}`}
          >
            <UserPlus aria-hidden="true" />
            Invite as client
          </Button>
          {c.handled_at ? (
            <Button
              variant="ghost"
              size="sm"
              disabled={setHandled.isPending}
              onClick={() => setHandled.mutate({ id: c.id, handled: false })}
              aria-label={`Reopen, request from ${c.name}`}
            >
              <RotateCcw aria-hidden="true" />
              Reopen
            </Button>
          ) : (
            <Button
              variant="outline"
              size="sm"
              disabled={setHandled.isPending}
              onClick={() => setHandled.mutate({ id: c.id, handled: true })}
              aria-label={`Mark handled, request from ${c.name}`}
            >
              <Check aria-hidden="true" />
              Mark handled
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <DataTable
      caption="Consultation requests"
      searchLabel="Search requests by name, email or phone"
      columns={columns}
      query={consultations}
      rowKey={(c) => c.id}
      paging={paging}
      emptyText={paging.input.q ? "No requests match your search." : "No consultation requests yet."}
    />
  );
}
