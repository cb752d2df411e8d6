import { type FormEvent, useState } from "react";
import { Lock, Pencil, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDateTime } from "@/lib/format.ts";
import { type AccountNote, NOTE_EMPTY, NOTE_MAX_CHARS } from "@server/domains/account-notes/schemas.ts";
import { useAccountNotes, useCreateNote, useDeleteNote, useUpdateNote } from "./use-account-notes.ts";

/** The firm's private notes on a client: anyone who reaches the account adds theirs; each person changes only their own; clients never see them. */
export function NotesSection({ accountId }: { accountId: string }) {
  const notes = useAccountNotes(accountId);
  return (
    <section aria-labelledby="account-notes-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="account-notes-heading" className="flex items-center gap-2 text-xl font-semibold">
          <Lock aria-hidden="true" className="size-4" />
          Private notes
        </h2>
        <p className="text-sm text-muted-foreground">For the firm only: the client never sees these notes.</p>
      </div>
      <NewNoteForm accountId={accountId} />
      {notes.isError ? (
        <LoadError message="Failed to load the notes" onRetry={() => void notes.refetch()} isRetrying={notes.isFetching} />
      ) : notes.isPending ? (
        <Spinner label="Loading notes…" className="w-full justify-center py-6" />
      ) : notes.data.length === 0 ? (
        <p className="rounded-xl border bg-card px-4 py-6 text-center text-sm text-muted-foreground">No notes yet.</p>
      ) : (
        <ul aria-label="Notes" className="grid gap-3">
          {notes.data.map((note) => (
            <NoteItem key={note.id} accountId={accountId} note={note} />
          ))}
        </ul>
      )}
    </section>
  );
}

function NewNoteForm({ accountId }: { accountId: string }) {
  const [body, setBody] = useState("");
  const [error, setError] = useState<string>();
  const create = useCreateNote(accountId);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body.trim()) return setError(NOTE_EMPTY);
    create.mutate(
      { id: accountId, body },
      {
        onSuccess: () => {
          setBody("");
          setError(undefined);
          toast.success("Note added");
        },
        onError: (err) => setError(errorDetail(err) ?? "Failed to add the note"),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-3 rounded-xl border bg-card p-4">
      <FormField id="new-note" label="New note" error={error}>
        <Textarea rows={3} value={body} maxLength={NOTE_MAX_CHARS} onChange={(event) => setBody(event.target.value)} />
      </FormField>
      <Button type="submit" className="justify-self-start" disabled={create.isPending}>
        {create.isPending ? "Adding..." : "Add note"}
      </Button>
    </form>
  );
}

function NoteItem({ accountId, note }: { accountId: string; note: AccountNote }) {
  const [editing, setEditing] = useState(false);
  const remove = useDeleteNote(accountId);
  const edited = note.updated_at.getTime() > note.created_at.getTime();
  return (
    <li className="grid gap-2 rounded-xl border bg-card p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="font-medium">{note.author_name}</span>
        <span className="text-muted-foreground">
          <time dateTime={note.created_at.toISOString()}>{formatDateTime(note.created_at)}</time>
          {edited && " · edited"}
        </span>
      </div>
      {editing ? (
        <EditNoteForm accountId={accountId} note={note} onDone={() => setEditing(false)} />
      ) : (
        <>
          <p className="text-sm whitespace-pre-wrap wrap-anywhere">{note.body}</p>
          {note.mine && (
            <div className="flex flex-wrap gap-2">
              <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" />
                Edit<span className="sr-only"> note of {formatDateTime(note.created_at)}</span>
              </Button>
              <ConfirmAction
                trigger={
                  <Button variant="ghost" size="sm" className="text-destructive" disabled={remove.isPending}>
                    <Trash2 aria-hidden="true" />
                    Delete<span className="sr-only"> note of {formatDateTime(note.created_at)}</span>
                  </Button>
                }
                title="Delete this note?"
                question="The note is deleted for everyone at the firm. This cannot be undone."
                confirmLabel="Delete note"
                onConfirm={() =>
                  remove.mutate(
                    { id: accountId, noteId: note.id },
                    {
                      onSuccess: () => toast.success("Note deleted"),
                      onError: (err) => toast.error(errorDetail(err) ?? "Failed to delete the note"),
                    },
                  )
                }
              />
            </div>
          )}
        </>
      )}
    </li>
  );
}

function EditNoteForm({ accountId, note, onDone }: { accountId: string; note: AccountNote; onDone: () => void }) {
  const [body, setBody] = useState(note.body);
  const [error, setError] = useState<string>();
  const update = useUpdateNote(accountId);
  const fieldId = `note-${note.id}`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body.trim()) return setError(NOTE_EMPTY);
    update.mutate(
      { id: accountId, noteId: note.id, body },
      { onSuccess: onDone, onError: (err) => setError(errorDetail(err) ?? "Failed to save the note") },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-3">
      <FormField id={fieldId} label="Edit note" error={error}>
        <Textarea rows={3} value={body} maxLength={NOTE_MAX_CHARS} autoFocus onChange={(event) => setBody(event.target.value)} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? "Saving..." : "Save note"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
