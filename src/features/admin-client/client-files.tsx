import { useState } from "react";
import { Building2, Download, Folder as FolderIcon, Trash2, Undo2 } from "lucide-react";
import { DocumentViewer } from "@/components/document-viewer/document-viewer.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { formatDate, formatFileSizeKB } from "@/lib/format.ts";
import { type DocumentItem, TRASH_RETENTION_DAYS } from "@server/domains/documents/schemas.ts";
import type { Folder } from "@server/domains/folders/schemas.ts";
import { useClientDocuments } from "./use-client-documents.ts";
import { useTrashClientDocument } from "./use-trash-client-document.ts";

type ClientFilesProps = {
  clientId: string;
  clientName: string;
  folders: readonly Folder[];
  /** The folders from the client's root down to the one shown; empty for their root. */
  path: readonly Folder[];
  onOpenFolder: (folderId: string | null) => void;
};

/** One folder of the client's documents as the client sees it: its subfolders, then its documents, which open in the viewer. */
export function ClientFiles({ clientId, clientName, folders, path, onOpenFolder }: ClientFilesProps) {
  const current = path.at(-1) ?? null;
  const subfolders = folders
    .filter((folder) => folder.parent_folder_id === (current?.id ?? null))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base", numeric: true }));
  const label = current ? `Contents of ${clientName}'s folder ${current.name}` : `Contents of ${clientName}'s documents, top level`;

  return (
    <div role="region" aria-label={label} className="overflow-hidden rounded-xl border bg-card divide-y">
      {subfolders.length > 0 && (
        <ul aria-label="Folders" className="divide-y">
          {subfolders.map((folder) => (
            <li key={folder.id}>
              <button
                type="button"
                onClick={() => onOpenFolder(folder.id)}
                className="flex min-h-12 w-full min-w-0 cursor-pointer items-center gap-3 px-4 py-2.5 text-left transition-colors duration-150 hover:bg-muted/50"
              >
                <FolderIcon aria-hidden="true" className="size-5 shrink-0" style={{ color: folder.color, fill: `${folder.color}33` }} />
                <span className="truncate text-sm font-medium">{folder.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ClientDocumentList clientId={clientId} clientName={clientName} folderId={current?.id ?? null} folderName={current?.name ?? null} />
    </div>
  );
}

type ClientDocumentListProps = { clientId: string; clientName: string; folderId: string | null; folderName: string | null };

function ClientDocumentList({ clientId, clientName, folderId, folderName }: ClientDocumentListProps) {
  const documents = useClientDocuments(clientId, folderId);
  const trash = useTrashClientDocument(clientId);
  const [viewing, setViewing] = useState<string | null>(null);

  if (documents.isPending) return <Spinner label="Loading documents…" className="w-full justify-center py-6" />;
  if (documents.isError) {
    return (
      <LoadError
        message="The client's documents could not be loaded."
        onRetry={() => void documents.refetch()}
        isRetrying={documents.isFetching}
        className="m-3 border-0 p-3"
      />
    );
  }
  if (documents.data.length === 0) {
    return (
      <p className="px-4 py-8 text-center text-sm text-muted-foreground">
        {folderName === null ? "No documents in root folder." : `No documents in "${folderName}" folder.`} Upload files above to share them.
      </p>
    );
  }
  return (
    <>
      <ul aria-label="Documents" className="divide-y">
        {documents.data.map((document) => (
          <ClientDocumentRow
            key={document.id}
            document={document}
            clientName={clientName}
            onView={() => setViewing(document.id)}
            onTrash={() => trash.trash(document)}
            trashing={trash.pendingId === document.id}
          />
        ))}
      </ul>
      <DocumentViewer
        documents={documents.data}
        openId={viewing}
        onOpenIdChange={setViewing}
        previewUrl={(id) => `/api/admin/documents/${id}/preview`}
        downloadUrl={(id) => `/api/admin/documents/${id}/download`}
      />
    </>
  );
}

type ClientDocumentRowProps = { document: DocumentItem; clientName: string; onView: () => void; onTrash: () => void; trashing: boolean };

function ClientDocumentRow({ document, clientName, onView, onTrash, trashing }: ClientDocumentRowProps) {
  const name = document.original_filename;
  // What the firm shared by mistake is pulled back; a client's own upload is deleted. Either goes to their trash.
  const pullBack = document.from_firm;
  return (
    <li className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 px-4 py-2 md:grid-cols-[1fr_8rem_6rem_auto]">
      <div className="grid min-w-0 justify-items-start gap-1">
        <button
          type="button"
          onClick={onView}
          aria-haspopup="dialog"
          title={name}
          className="block min-h-8 max-w-full cursor-pointer truncate rounded-sm text-left text-sm font-medium hover:underline max-sm:min-h-11"
        >
          {name}
        </button>
        {document.from_firm && (
          <Badge variant="success">
            <Building2 aria-hidden="true" />
            Shared by the firm
          </Badge>
        )}
      </div>
      <span className="col-start-1 row-start-2 flex gap-3 text-xs text-muted-foreground md:contents md:text-sm">
        <span className="md:text-right">
          <span className="sr-only">Uploaded </span>
          <time dateTime={document.upload_date.toISOString()}>{formatDate(document.upload_date)}</time>
        </span>
        <span className="tabular-nums md:text-right">
          <span className="sr-only">Size </span>
          {formatFileSizeKB(document.file_size)}
        </span>
      </span>
      <div className="col-start-2 row-span-2 row-start-1 flex gap-1 md:col-start-auto md:row-span-1 md:row-start-auto">
        <Button asChild variant="ghost" size="icon-sm">
          <a href={`/api/admin/documents/${document.id}/download`} download aria-label={`Download ${name}`}>
            <Download aria-hidden="true" />
          </a>
        </Button>
        <ConfirmAction
          trigger={
            <Button variant="ghost" size="icon-sm" disabled={trashing} aria-label={pullBack ? `Pull back ${name}` : `Delete ${name}`}>
              {pullBack ? <Undo2 aria-hidden="true" /> : <Trash2 aria-hidden="true" className="text-destructive" />}
            </Button>
          }
          title={pullBack ? "Pull back this document?" : "Delete this document?"}
          question={
            pullBack
              ? `${clientName} will no longer see ${name}, not even in their trash. It stays in the firm's trash for ${TRASH_RETENTION_DAYS} days: restore it from the Documents tab's trash if you change your mind.`
              : "Are you sure you want to delete this document?"
          }
          confirmLabel={pullBack ? "Pull back" : "Delete"}
          onConfirm={onTrash}
        />
      </div>
    </li>
  );
}
