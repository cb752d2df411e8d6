import { Download, Trash } from "lucide-react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { formatDate, formatFileSizeKB, splitExtension } from "@/lib/format.ts";
import type { DocumentItem } from "@server/routers/documents/schemas.ts";
import { FileIcon } from "./file-icon.tsx";
import { useDeleteDocument } from "./use-delete-document.ts";
import { useDocuments } from "./use-documents.ts";

type DocumentListProps = {
  /** null for the root. */
  folderId: string | null;
  folderName: string | null;
};

/** The rows of a folder's documents, inside the list the dashboard draws around folders and documents. */
export function DocumentList({ folderId, folderName }: DocumentListProps) {
  const documents = useDocuments(folderId);

  if (documents.isPending) return <Spinner label="Loading documents…" className="w-full justify-center py-6" />;
  if (documents.isError) {
    return (
      <LoadError
        message="Your documents could not be loaded."
        onRetry={() => void documents.refetch()}
        isRetrying={documents.isFetching}
        className="m-3 border-0 p-3"
      />
    );
  }
  if (documents.data.length === 0) {
    return (
      <div className="px-4 py-8 text-center">
        <FileIcon name="" className="mx-auto mb-3 size-8 text-muted-foreground" />
        <p className="font-medium">{folderName === null ? "No documents in root folder." : `No documents in "${folderName}" folder.`}</p>
        <p className="mt-1 text-sm text-muted-foreground">Upload a file above, or drop one here, to add it.</p>
      </div>
    );
  }

  return (
    <ul aria-label="Documents" className="divide-y">
      {documents.data.map((document) => (
        <DocumentRow key={document.id} document={document} />
      ))}
    </ul>
  );
}

/** A long name is shortened in its middle, so the extension stays in view; the whole name is the tooltip. */
function FileName({ name }: { name: string }) {
  const [base, extension] = splitExtension(name);
  return (
    <span className="flex min-w-0 text-sm font-medium" title={name}>
      <span className="truncate">{base}</span>
      <span className="shrink-0">{extension}</span>
    </span>
  );
}

function DocumentRow({ document }: { document: DocumentItem }) {
  const deleteDocument = useDeleteDocument();

  return (
    <li className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 px-4 py-3 md:grid-cols-[1fr_8rem_6rem_13rem]">
      <div className="flex min-w-0 items-center gap-3">
        <FileIcon name={document.original_filename} className="size-5 shrink-0 text-muted-foreground" />
        <FileName name={document.original_filename} />
      </div>
      <span className="col-start-1 row-start-2 flex gap-3 pl-8 text-xs text-muted-foreground md:contents md:text-sm">
        <span className="md:text-right">
          <span className="sr-only">Uploaded </span>
          <time dateTime={document.upload_date.toISOString()}>{formatDate(document.upload_date)}</time>
        </span>
        <span className="tabular-nums md:text-right">
          <span className="sr-only">Size </span>
          {formatFileSizeKB(document.file_size)}
        </span>
      </span>
      <div className="col-start-2 row-span-2 row-start-1 flex items-center justify-end gap-2 sm:gap-3 md:col-start-auto md:row-span-1 md:row-start-auto">
        <Button asChild variant="outline" size="sm">
          <a href={`/api/documents/${document.id}/download`} download aria-label={`Download ${document.original_filename}`}>
            <Download aria-hidden="true" />
            <span className="hidden sm:inline">Download</span>
          </a>
        </Button>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button variant="ghost-destructive" size="sm" aria-label={`Delete ${document.original_filename}`}>
              <Trash aria-hidden="true" />
              <span className="hidden sm:inline">Delete</span>
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete document</AlertDialogTitle>
              <AlertDialogDescription>Are you sure you want to delete this document?</AlertDialogDescription>
            </AlertDialogHeader>
            <FileName name={document.original_filename} />
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction onClick={() => deleteDocument.mutate({ id: document.id })}>Delete</AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </li>
  );
}
