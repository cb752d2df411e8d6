import { useState } from "react";
import { CheckCheck, CircleAlert, Hourglass, ListChecks, RotateCcw } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Select } from "@/components/ui/select.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatCalendarDate } from "@/lib/format.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import { type AdminRequest, REQUEST_STATUSES, type RequestStatus } from "@server/domains/requests/schemas.ts";
import { NewRequestDialog } from "./new-request-dialog.tsx";
import { checklistProgress, RequestChecklistDialog, submittedWithout } from "./request-checklist-dialog.tsx";
import { RequestTemplatesDialog } from "./request-templates-dialog.tsx";
import { CHANGE_LABELS, RequestStatusDialog, type StatusChange } from "./request-status-dialog.tsx";
import { useAdminRequests } from "./use-admin-requests.ts";

const STATUS_LABELS: Record<RequestStatus, string> = { open: "Open", submitted: "Submitted", done: "Done" };

/** A client's record shows that client's requests only, and asks them without a client to pick. */
type RequestsAccount = { id: string; name: string };

/** The firm's document requests: ask a client for documents, follow them by client and status, close or reopen them. */
export function RequestsTab({ account }: { account?: RequestsAccount } = {}) {
  const [status, setStatus] = useState<RequestStatus | "">("");
  return (
    <section aria-labelledby="requests-tab-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="requests-tab-heading" className="text-xl font-semibold">
            Document requests
          </h2>
          <p className="text-sm text-muted-foreground">
            {account
              ? `What the firm has asked ${account.name} for, and what they have submitted.`
              : "What the firm has asked its clients for, and what they have submitted."}
          </p>
        </div>
        <FormField id="requests-status-filter" label="Status" className="w-44 gap-1">
          <Select value={status} onChange={(event) => setStatus(event.target.value as RequestStatus | "")}>
            <option value="">All statuses</option>
            {REQUEST_STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      {/* A new status starts again at the first page. */}
      <RequestList key={status} status={status || undefined} account={account} />
    </section>
  );
}

function RequestList({ status, account }: { status: RequestStatus | undefined; account: RequestsAccount | undefined }) {
  const paging = useServerPaging();
  const requests = useAdminRequests(paging, status, account?.id);
  const [changing, setChanging] = useState<StatusChange | null>(null);
  const [checklistOf, setChecklistOf] = useState<string | null>(null);
  // The dialog reads the request from the list, so each item's change shows there as it lands.
  const checklistRequest = requests.data?.items.find((r) => r.id === checklistOf) ?? null;

  const columns: DataTableColumn<AdminRequest>[] = [
    {
      header: "Client",
      cell: (r) => (
        <div className="sm:max-w-48 sm:min-w-32">
          <TruncatedText text={r.client_name} className="font-medium" />
          <TruncatedText text={r.client_label} className="text-muted-foreground" />
        </div>
      ),
    },
    {
      header: "Request",
      card: "title",
      cell: (r) => (
        <div className="min-w-40 sm:max-w-72">
          <TruncatedText text={r.title} className="font-medium" />
          {r.description && <p className="line-clamp-2 wrap-anywhere text-muted-foreground">{r.description}</p>}
          {r.folder_name && <p className="text-xs text-muted-foreground">Into {r.folder_name}</p>}
          {r.comment && <p className="line-clamp-2 text-xs wrap-anywhere">Comment: {r.comment}</p>}
          {r.items.length > 0 && <p className="text-xs text-muted-foreground">Checklist: {checklistProgress(r)}</p>}
          {submittedWithout(r) && (
            <p className="flex items-start gap-1 text-xs font-medium wrap-anywhere text-amber-800">
              <CircleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              {submittedWithout(r)}
            </p>
          )}
        </div>
      ),
    },
    {
      header: "Due",
      className: "whitespace-nowrap tabular-nums",
      cell: (r) =>
        r.due_date ? (
          <span className={r.overdue ? "inline-flex items-center gap-1 font-medium text-destructive" : undefined}>
            {r.overdue && <CircleAlert aria-hidden="true" className="size-4" />}
            {formatCalendarDate(r.due_date)}
            {r.overdue && " (overdue)"}
          </span>
        ) : (
          <span className="text-muted-foreground">None</span>
        ),
    },
    { header: "Status", cell: (r) => <StatusBadge status={r.status} /> },
    { header: "Documents", className: "text-right tabular-nums", cell: (r) => r.document_count },
    {
      header: "Actions",
      className: "text-right",
      card: "actions",
      cell: (r) => (
        <div className="flex flex-wrap justify-end gap-2">
          {r.items.length > 0 && (
            <Button variant="outline" size="sm" aria-label={`Checklist: ${r.title} for ${r.client_name}`} onClick={() => setChecklistOf(r.id)}>
              <ListChecks aria-hidden="true" />
              Checklist
            </Button>
          )}
          {r.status !== "done" && (
            <Button
              variant="outline"
              size="sm"
              aria-label={`Mark done: ${r.title} for ${r.client_name}`}
              onClick={() => setChanging({ request: r, change: "done" })}
            >
              <CheckCheck aria-hidden="true" />
              {CHANGE_LABELS.done}
            </Button>
          )}
          {r.status !== "open" && (
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Reopen: ${r.title} for ${r.client_name}`}
              onClick={() => setChanging({ request: r, change: "open" })}
            >
              <RotateCcw aria-hidden="true" />
              {CHANGE_LABELS.open}
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <DataTable
        caption="Document requests"
        searchLabel={account ? "Search by title" : "Search by client or title"}
        columns={columns}
        query={requests}
        rowKey={(r) => r.id}
        paging={paging}
        emptyText={paging.input.q || status ? "No requests match." : "No document requests yet."}
        toolbar={
          <div className="flex flex-wrap gap-2">
            <RequestTemplatesDialog />
            <NewRequestDialog client={account} />
          </div>
        }
      />
      <RequestStatusDialog changing={changing} onClose={() => setChanging(null)} />
      <RequestChecklistDialog request={checklistRequest} onClose={() => setChecklistOf(null)} />
    </>
  );
}

function StatusBadge({ status }: { status: RequestStatus }) {
  if (status === "submitted") {
    return (
      <Badge variant="success">
        <Hourglass aria-hidden="true" />
        Submitted
      </Badge>
    );
  }
  return <Badge variant={status === "open" ? "secondary" : "muted"}>{STATUS_LABELS[status]}</Badge>;
}
