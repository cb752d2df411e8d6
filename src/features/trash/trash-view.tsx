import { ArrowLeft, RotateCcw, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDate, formatFileSizeKB } from "@/lib/format.ts";
import { TRASH_RETENTION_DAYS, type TrashedDocument } from "@server/domains/documents/schemas.ts";
import { useDeleteForever } from "./use-delete-forever.ts";
import { useRestoreDocument } from "./use-restore-document.ts";
import { useTrash } from "./use-trash.ts";

/** The client's trash, a view of the Documents tab: each document with when it goes for good, Restore and Delete forever. */
export function TrashView({ onBack }: { onBack: () => void }) {
  const trash = useTrash();

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h2 className="text-xl font-semibold">Trash</h2>
          <p className="text-sm text-muted-foreground">Deleted documents stay here for {TRASH_RETENTION_DAYS} days, then they are deleted forever.</p>
        </div>
        <Button variant="outline" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          Back to documents
        </Button>
      </div>
      <div className="overflow-hidden rounded-xl border bg-card">
        {trash.isPending ? (
          <Spinner label="Loading the trash…" className="w-full justify-center py-8" />
        ) : trash.isError ? (
          <LoadError
            message="The trash could not be loaded."
            onRetry={() => void trash.refetch()}
            isRetrying={trash.isFetching}
            className="m-3 border-0 p-3"
          />
        ) : trash.data.length === 0 ? (
          <div className="px-4 py-10 text-center">
            <Trash2 aria-hidden="true" className="mx-auto mb-3 size-8 text-muted-foreground" strokeWidth={1.75} />
            <p className="font-medium">The trash is empty.</p>
            <p className="mt-1 text-sm text-muted-foreground">
              Documents you delete wait here for {TRASH_RETENTION_DAYS} days, so you can restore them.
            </p>
          </div>
        ) : (
          <ul aria-label="Trashed documents" className="divide-y">
            {trash.data.map((document) => (
              <TrashRow key={document.id} document={document} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function TrashRow({ document }: { document: TrashedDocument }) {
  const restore = useRestoreDocument();
  const deleteForever = useDeleteForever();
  const name = document.original_filename;

  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
      <div className="grid min-w-0 flex-1 basis-60 gap-0.5">
        <TruncatedText text={name} className="text-sm font-medium" />
        <p className="text-xs text-muted-foreground">
          <span className="tabular-nums">{formatFileSizeKB(document.file_size)}</span> · Deleted{" "}
          <time dateTime={document.deleted_at.toISOString()}>{formatDate(document.deleted_at)}</time> · Deleted forever on{" "}
          <time dateTime={document.purge_at.toISOString()}>{formatDate(document.purge_at)}</time>
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={restore.isPending}
          onClick={() => restore.mutate({ id: document.id })}
          aria-label={`Restore ${name}`}
        >
          <RotateCcw aria-hidden="true" />
          Restore
        </Button>
        <ConfirmAction
          title="Delete forever?"
          question={`"${name}" will be deleted forever. This cannot be undone.`}
          confirmLabel="Delete forever"
          onConfirm={() => deleteForever.mutate({ id: document.id })}
          trigger={
            <Button variant="ghost-destructive" size="sm" disabled={deleteForever.isPending} aria-label={`Delete forever: ${name}`}>
              <Trash2 aria-hidden="true" />
              Delete forever
            </Button>
          }
        />
      </div>
    </li>
  );
}
