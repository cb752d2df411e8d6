import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import type { AdminRequest } from "@server/domains/requests/schemas.ts";
import { useUpdateRequest } from "./use-update-request.ts";

export type StatusChange = { request: AdminRequest; change: "done" | "open" };

export const CHANGE_LABELS: Record<StatusChange["change"], string> = { done: "Mark done", open: "Reopen" };

const WORDING: Record<StatusChange["change"], { title: string; description: string }> = {
  done: { title: "Mark the request done", description: "The client sees it as completed. A comment is optional." },
  open: { title: "Reopen the request", description: "The client can upload again and submit it once more. Say what is still missing." },
};

/**
 * Mark done or reopen one request, with the firm's comment for the client. Held by the list rather
 * than by a row, so it stays open when the table turns into cards (or back) under it.
 */
export function RequestStatusDialog({ changing, onClose }: { changing: StatusChange | null; onClose: () => void }) {
  return (
    <Dialog open={changing !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">{changing && <StatusForm key={changing.request.id} changing={changing} onDone={onClose} />}</DialogContent>
    </Dialog>
  );
}

function StatusForm({ changing, onDone }: { changing: StatusChange; onDone: () => void }) {
  const { request, change } = changing;
  const [comment, setComment] = useState(request.comment ?? "");
  const update = useUpdateRequest();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update.mutate({ id: request.id, status: change, comment: comment.trim() }, { onSuccess: onDone });
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{WORDING[change].title}</DialogTitle>
        <DialogDescription>
          “{request.title}” for {request.client_name}. {WORDING[change].description}
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={submit} className="grid gap-4">
        <FormField id="request-comment" label="Comment for the client">
          <Textarea rows={3} value={comment} onChange={(event) => setComment(event.target.value)} maxLength={5000} />
        </FormField>
        <DialogFooter>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving..." : CHANGE_LABELS[change]}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
