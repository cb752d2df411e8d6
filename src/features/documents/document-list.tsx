import { Download, FileText, Trash } from "lucide-react";
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
import { Spinner } from "@/components/ui/spinner.tsx";
import { formatDate, formatFileSizeKB } from "@/lib/format.ts";
import type { DocumentItem } from "../../../server/routers/documents/schemas.ts";
import { useDeleteDocument } from "./use-delete-document.ts";
import { useDocuments } from "./use-documents.ts";

type DocumentListProps = {
  /** null for the root. */
  folderId: string | null;
  folderName: string | null;
};

export function DocumentList({ folderId, folderName }: DocumentListProps) {
  const documents = useDocuments(folderId);

  if (documents.isPending) return <Spinner label="Loading documents…" className="w-full justify-center py-6" />;
  // Spec: a failed load is only logged.
  if (documents.isError) return null;
  if (documents.data.length === 0) {
    return (
      <div className="rounded-xl border bg-card px-4 py-10 text-center">
        <FileText aria-hidden="true" className="mx-auto mb-3 size-8 text-muted-foreground" strokeWidth={1.5} />
        <p className="font-medium">
          {folderName === null ? "No documents in root folder." : `No documents in "${folderName}" folder.`}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">Upload a file above to add it here.</p>
      </div>
    );
  }

  return (
    <div className="overflow-hidden rounded-xl border bg-card">
      <div aria-hidden="true" className="hidden grid-cols-[1fr_8rem_6rem_13rem] gap-4 border-b bg-muted/60 px-4 py-2 text-xs font-medium text-muted-foreground md:grid">
        <span>Name</span>
        <span className="text-right">Uploaded</span>
        <span className="text-right">Size</span>
        <span className="sr-only">Actions</span>
      </div>
      <ul aria-label="Documents" className="divide-y">
        {documents.data.map((document) => (
          <DocumentRow key={document.id} document={document} />
        ))}
      </ul>
    </div>
  );
}

function DocumentRow({ document }: { document: DocumentItem }) {
  const deleteDocument = useDeleteDocument();

  return (
    <li className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-2 px-4 py-3 md:grid-cols-[1fr_8rem_6rem_13rem]">
      <div className="flex min-w-0 items-center gap-3">
        <FileText aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
        <span className="truncate text-sm font-medium" title={document.original_filename}>
          {document.original_filename}
        </span>
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
      <div className="col-start-2 row-span-2 row-start-1 flex items-center justify-end gap-3 md:col-start-auto md:row-span-1 md:row-start-auto">
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
            <p className="truncate text-sm font-medium">{document.original_filename}</p>
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
