import { useRef, useState } from "react";
import { CircleAlert, ClipboardList, FileText, Hourglass, Paperclip, Send, Upload } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { formatCalendarDate, formatDate } from "@/lib/format.ts";
import type { ClientRequest } from "@server/domains/requests/schemas.ts";
import { RequestChecklist } from "./request-checklist.tsx";
import { useOwnRequests } from "./use-own-requests.ts";
import { useSubmitRequest } from "./use-submit-request.ts";
import { useUploadToRequest } from "./use-upload-to-request.ts";

/**
 * What the firm has asked the client for, first thing on the dashboard: open requests with their
 * due dates (overdue ones marked in words and colour), each with Upload and Mark submitted;
 * submitted ones wait for the firm; done ones fold away. Nothing shows while there are none.
 */
export function RequestsCard() {
  const requests = useOwnRequests();
  const uploads = useUploadToRequest();
  const submit = useSubmitRequest();

  if (requests.isPending) return null;
  if (requests.isError) {
    return <LoadError message="Failed to load your document requests" onRetry={() => void requests.refetch()} isRetrying={requests.isFetching} />;
  }
  if (requests.data.length === 0) return null;
  const active = requests.data.filter((request) => request.status !== "done");
  const done = requests.data.filter((request) => request.status === "done");
  const open = active.filter((request) => request.status === "open").length;

  return (
    <Card aria-labelledby="requests-heading" role="region" className="min-w-0 border-accent/30">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="requests-heading" className="flex items-center gap-2">
            <ClipboardList aria-hidden="true" className="size-5 text-accent" />
            Requests from your firm
          </h2>
        </CardTitle>
        <CardDescription>
          {open > 0
            ? `Your firm is waiting for ${open === 1 ? "one request" : `${open} requests`}: upload the documents, then mark each request submitted.`
            : "Nothing is waiting for you right now."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {active.length > 0 && (
          <ul aria-label="Open and submitted requests" className="grid gap-3">
            {active.map((request) => (
              <RequestItem
                key={request.id}
                request={request}
                uploads={uploads}
                uploading={uploads.progress?.requestId === request.id && uploads.progress.itemId === null ? uploads.progress : null}
                uploadBusy={uploads.progress !== null}
                onUpload={(files) => void uploads.upload(request, files)}
                submitting={submit.isPending && submit.variables?.id === request.id}
                onSubmit={() => submit.mutate({ id: request.id })}
              />
            ))}
          </ul>
        )}
        {done.length > 0 && (
          <details className="group rounded-lg border bg-muted/40 px-4 py-2">
            <summary className="cursor-pointer rounded-md py-1 text-sm font-medium">Completed requests ({done.length})</summary>
            <ul aria-label="Completed requests" className="grid divide-y">
              {done.map((request) => (
                <li key={request.id} className="grid gap-0.5 py-2 text-sm">
                  <span className="font-medium break-words">{request.title}</span>
                  <span className="text-muted-foreground">
                    Done{request.done_at ? ` on ${formatDate(request.done_at)}` : ""} · {documentCount(request)}
                  </span>
                  {request.comment && <FirmComment comment={request.comment} />}
                </li>
              ))}
            </ul>
          </details>
        )}
      </CardContent>
    </Card>
  );
}

type RequestItemProps = {
  request: ClientRequest;
  uploads: ReturnType<typeof useUploadToRequest>;
  uploading: { done: number; total: number } | null;
  uploadBusy: boolean;
  onUpload: (files: File[]) => void;
  submitting: boolean;
  onSubmit: () => void;
};

function RequestItem({ request, uploads, uploading, uploadBusy, onUpload, submitting, onSubmit }: RequestItemProps) {
  const picker = useRef<HTMLInputElement>(null);
  const isOpen = request.status === "open";
  const hasDocuments = request.documents.length > 0;
  // A checklist's files are listed under their items; a request without one keeps its own list and Upload.
  const checklist = request.items.length > 0;
  const onItems = new Set(request.items.flatMap((item) => item.documents.map((document) => document.id)));
  const loose = request.documents.filter((document) => !onItems.has(document.id));
  const hintId = `request-${request.id}-hint`;
  // Items still needed: Mark submitted asks first, naming them (issue 48); the firm is told which.
  const needed = request.items.filter((item) => item.status === "open");
  const [asking, setAsking] = useState(false);

  return (
    <li
      aria-label={request.title}
      className={`grid min-w-0 gap-3 rounded-lg border p-4 ${request.overdue ? "border-destructive/40 bg-destructive/5" : "bg-card"}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 font-medium break-words [overflow-wrap:anywhere]">{request.title}</h3>
        <StatusBadge request={request} />
      </div>
      <p className={`text-sm ${request.overdue ? "font-medium text-destructive" : "text-muted-foreground"}`}>
        {request.due_date ? `${request.overdue ? "Overdue: was due" : "Due"} ${formatCalendarDate(request.due_date)}` : "No due date"}
        {request.folder_name && <span className="font-normal text-muted-foreground"> · Uploads go to {request.folder_name}</span>}
      </p>
      {request.description && <p className="text-sm whitespace-pre-line break-words">{request.description}</p>}
      {request.comment && <FirmComment comment={request.comment} />}
      {checklist && <RequestChecklist request={request} uploads={uploads} />}
      {checklist && loose.length === 0 ? null : loose.length > 0 ? (
        <ul aria-label={`Documents for ${request.title}`} className="grid gap-1">
          {loose.map((document) => (
            <li key={document.id} className="flex min-w-0 items-center gap-2 text-sm">
              <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <span className="truncate">{document.original_filename}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Paperclip aria-hidden="true" className="size-4" />
          No documents attached yet
        </p>
      )}
      {isOpen && (
        <div className="flex flex-wrap items-center gap-2">
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label={`Choose files for ${request.title}`}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              onUpload(files);
            }}
          />
          {!checklist && (
            <Button variant="outline" size="sm" disabled={uploadBusy} onClick={() => picker.current?.click()}>
              <Upload aria-hidden="true" />
              {uploading ? `Uploading ${Math.min(uploading.done + 1, uploading.total)} of ${uploading.total}…` : "Upload"}
            </Button>
          )}
          <Button
            variant="accent"
            size="sm"
            disabled={!hasDocuments || submitting || uploadBusy}
            aria-describedby={hasDocuments ? undefined : hintId}
            onClick={needed.length > 0 ? () => setAsking(true) : onSubmit}
          >
            <Send aria-hidden="true" />
            {submitting ? "Submitting…" : "Mark submitted"}
          </Button>
          <AlertDialog open={asking} onOpenChange={setAsking}>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Submit without {needed.length === 1 ? "1 item" : `${needed.length} items`}?</AlertDialogTitle>
                <AlertDialogDescription>
                  Your firm is still waiting for {needed.length === 1 ? "this" : "these"}. If you submit now, it sees what is missing, and you can
                  still upload {needed.length === 1 ? "it" : "them"} here afterwards.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <ul aria-label="Still needed" className="grid list-disc gap-1 pl-5 text-sm">
                {needed.map((item) => (
                  <li key={item.id} className="break-words">
                    {item.title}
                  </li>
                ))}
              </ul>
              <AlertDialogFooter>
                <AlertDialogCancel>Keep uploading</AlertDialogCancel>
                <AlertDialogAction variant="accent" onClick={onSubmit}>
                  Submit anyway
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
          {!hasDocuments && (
            <span id={hintId} className="text-xs text-muted-foreground">
              Upload at least one document first
            </span>
          )}
        </div>
      )}
    </li>
  );
}

function StatusBadge({ request }: { request: ClientRequest }) {
  if (request.status === "submitted") {
    return (
      <Badge variant="muted">
        <Hourglass aria-hidden="true" />
        Submitted · waiting for your firm
      </Badge>
    );
  }
  if (request.overdue) {
    return (
      <Badge className="border-destructive/30 bg-destructive/10 text-destructive">
        <CircleAlert aria-hidden="true" />
        Overdue
      </Badge>
    );
  }
  return <Badge variant="success">Open</Badge>;
}

function FirmComment({ comment }: { comment: string }) {
  return (
    <p className="rounded-md bg-muted px-3 py-2 text-sm whitespace-pre-line break-words">
      <span className="font-medium">Your firm: </span>
      {comment}
    </p>
  );
}

function documentCount(request: ClientRequest): string {
  return request.documents.length === 1 ? "1 document" : `${request.documents.length} documents`;
}
