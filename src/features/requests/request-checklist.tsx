import { useRef } from "react";
import { CheckCircle2, Circle, CircleDot, FileText, Upload, X } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import type { ClientRequest, RequestItem, RequestItemStatus } from "@server/domains/requests/schemas.ts";
import { useRemoveItemDocument } from "./use-remove-item-document.ts";
import type { useUploadToRequest } from "./use-upload-to-request.ts";

type Uploads = ReturnType<typeof useUploadToRequest>;

const ITEM_STATUS_LABELS: Record<RequestItemStatus, string> = { open: "Needed", uploaded: "Uploaded", done: "Done" };

/**
 * A request's checklist on the client's card (issue 34): each item with its status, its own Upload
 * button and the files attached to it, each with Remove while the firm has not marked the item done.
 * Items take uploads after the request is submitted too, until the firm marks them (or it) done.
 */
export function RequestChecklist({ request, uploads }: { request: ClientRequest; uploads: Uploads }) {
  const remove = useRemoveItemDocument();
  const left = request.items.filter((item) => item.status === "open").length;
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">
        {left === 0 ? "Every item has a file." : `${left} of ${request.items.length} ${request.items.length === 1 ? "item" : "items"} still needed.`}
      </p>
      <ol aria-label={`Checklist for ${request.title}`} className="grid gap-2">
        {request.items.map((item) => (
          <ChecklistItem key={item.id} request={request} item={item} uploads={uploads} remove={remove} />
        ))}
      </ol>
    </div>
  );
}

type ChecklistItemProps = { request: ClientRequest; item: RequestItem; uploads: Uploads; remove: ReturnType<typeof useRemoveItemDocument> };

function ChecklistItem({ request, item, uploads, remove }: ChecklistItemProps) {
  const picker = useRef<HTMLInputElement>(null);
  const uploadButton = useRef<HTMLButtonElement>(null);
  const canChange = request.status !== "done" && item.status !== "done";
  const uploading = uploads.progress?.itemId === item.id ? uploads.progress : null;
  const Icon = item.status === "done" ? CheckCircle2 : item.status === "uploaded" ? CircleDot : Circle;

  return (
    <li aria-label={item.title} className="grid min-w-0 gap-2 rounded-md border bg-background p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <span className="flex min-w-0 items-start gap-2 text-sm font-medium">
          <Icon aria-hidden="true" className={`mt-0.5 size-4 shrink-0 ${item.status === "open" ? "text-muted-foreground" : "text-accent"}`} />
          <span className="min-w-0 break-words [overflow-wrap:anywhere]">{item.title}</span>
        </span>
        <Badge variant={item.status === "done" ? "success" : item.status === "uploaded" ? "secondary" : "muted"}>
          {ITEM_STATUS_LABELS[item.status]}
        </Badge>
      </div>
      {item.documents.length > 0 && (
        <ul aria-label={`Files for ${item.title}`} className="grid gap-1">
          {item.documents.map((document) => (
            <li key={document.id} className="flex min-w-0 items-center gap-2 text-sm">
              <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <span className="min-w-0 flex-1 truncate">{document.original_filename}</span>
              {canChange && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="shrink-0 text-destructive hover:text-destructive"
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(
                      { request_id: request.id, item_id: item.id, document_id: document.id },
                      // The row is gone: the item's Upload button is where the next step is.
                      { onSuccess: () => uploadButton.current?.focus() },
                    )
                  }
                >
                  <X aria-hidden="true" />
                  Remove<span className="sr-only"> {document.original_filename}</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canChange && (
        <div>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label={`Choose files for ${item.title}`}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              void uploads.upload(request, files, item);
            }}
          />
          <Button ref={uploadButton} variant="outline" size="sm" disabled={uploads.progress !== null} onClick={() => picker.current?.click()}>
            <Upload aria-hidden="true" />
            {uploading ? `Uploading ${Math.min(uploading.done + 1, uploading.total)} of ${uploading.total}…` : "Upload"}
            <span className="sr-only"> for {item.title}</span>
          </Button>
        </div>
      )}
    </li>
  );
}
