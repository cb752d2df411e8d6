import { CheckCheck, FileText, RotateCcw } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import type { AdminRequest, RequestItemStatus } from "@server/domains/requests/schemas.ts";
import { useUpdateRequestItem } from "./use-update-request-item.ts";

const ITEM_STATUS_LABELS: Record<RequestItemStatus, string> = { open: "Needed", uploaded: "Uploaded", done: "Done" };

/** The items still needed (open, no file): what a client who submitted the request anyway left out (issue 48). */
export function neededItems(request: AdminRequest): string[] {
  return request.items.filter((item) => item.status === "open").map((item) => item.title);
}

/** "Submitted without 2 items: 1099-INT, Property tax bill", or null when nothing was left out. */
export function submittedWithout(request: AdminRequest): string | null {
  const needed = request.status === "submitted" ? neededItems(request) : [];
  if (needed.length === 0) return null;
  return `Submitted without ${needed.length === 1 ? "1 item" : `${needed.length} items`}: ${needed.join(", ")}`;
}

/** "2 of 3 done": a checklist's progress, for the firm's list. */
export function checklistProgress(request: AdminRequest): string {
  const done = request.items.filter((item) => item.status === "done").length;
  return `${done} of ${request.items.length} done`;
}

/**
 * A request's checklist for the firm (issue 34): each item with its status and files, marked done
 * or reopened one by one. Held by the list, like the status dialog, and reads the request from the
 * list's data so it shows each change.
 */
export function RequestChecklistDialog({ request, onClose }: { request: AdminRequest | null; onClose: () => void }) {
  const update = useUpdateRequestItem();
  return (
    <Dialog open={request !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl">
        {request && (
          <>
            <DialogHeader>
              <DialogTitle>Checklist</DialogTitle>
              <DialogDescription>
                “{request.title}” for {request.client_name}: {checklistProgress(request)}. Mark an item done once its files are right; the client can
                then no longer remove them. Reopening tells the client by email.
              </DialogDescription>
              {submittedWithout(request) && <p className="text-sm font-medium text-amber-800">{submittedWithout(request)}.</p>}
            </DialogHeader>
            <ol aria-label={`Checklist for ${request.title}`} className="grid gap-2">
              {request.items.map((item) => (
                <li key={item.id} aria-label={item.title} className="grid gap-2 rounded-lg border p-3">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <span className="min-w-0 font-medium break-words [overflow-wrap:anywhere]">{item.title}</span>
                    <Badge variant={item.status === "done" ? "success" : item.status === "uploaded" ? "secondary" : "muted"}>
                      {ITEM_STATUS_LABELS[item.status]}
                    </Badge>
                  </div>
                  {item.documents.length > 0 ? (
                    <ul aria-label={`Files for ${item.title}`} className="grid gap-1">
                      {item.documents.map((document) => (
                        <li key={document.id} className="flex min-w-0 items-center gap-2 text-sm">
                          <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                          <span className="truncate">{document.original_filename}</span>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-muted-foreground">No files yet</p>
                  )}
                  <div>
                    {item.status === "done" ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={update.isPending}
                        onClick={() => update.mutate({ request_id: request.id, item_id: item.id, status: "open" })}
                      >
                        <RotateCcw aria-hidden="true" />
                        Reopen<span className="sr-only"> {item.title}</span>
                      </Button>
                    ) : (
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={update.isPending}
                        onClick={() => update.mutate({ request_id: request.id, item_id: item.id, status: "done" })}
                      >
                        <CheckCheck aria-hidden="true" />
                        Mark done<span className="sr-only"> {item.title}</span>
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ol>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
