import { useRef, useState } from "react";
import { Building2, Download, EllipsisVertical, FolderInput, FolderOpen, House, Pencil, SearchX, TextSearch, Trash } from "lucide-react";
import { toast } from "sonner";
import { DocumentViewer } from "@/components/document-viewer/document-viewer.tsx";
import { MoveToDialog } from "@/components/move-to-dialog.tsx";
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
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { type DocumentSort, sortDocuments } from "@/lib/document-sort.ts";
import { dragSource } from "@/lib/drag-item.ts";
import { formatDate, formatFileSizeKB, splitExtension } from "@/lib/format.ts";
import { useMediaQuery } from "@/lib/use-media-query.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import type { DocumentItem, DocumentSearchResult } from "@server/domains/documents/schemas.ts";
import type { SearchFilters } from "./document-search.tsx";
import { FileIcon } from "./file-icon.tsx";
import { RenameDocumentDialog } from "./rename-document-dialog.tsx";
import { useDeleteDocument } from "./use-delete-document.ts";
import { useDocuments } from "./use-documents.ts";
import { useSearchDocuments } from "./use-search-documents.ts";
import { useUpdateDocument } from "./use-update-document.ts";

/** The client's folders, for "Move to..." (the dashboard has them loaded). */
type PickerFolder = { id: string; name: string; parent_folder_id: string | null; color: string };

type FolderDocumentsProps = {
  /** null for the root. */
  folderId: string | null;
  folderName: string | null;
  folders: readonly PickerFolder[];
  sort: DocumentSort | null;
};

/** The rows of a folder's documents, inside the list the dashboard draws around folders and documents. */
export function DocumentList({ folderId, folderName, folders, sort }: FolderDocumentsProps) {
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
        {/* The specification's empty messages; at the top level the next line says in plain words what its "root folder" is. */}
        <p className="font-medium">{folderName === null ? "No documents in root folder." : `No documents in "${folderName}" folder.`}</p>
        <p className="mt-1 text-sm text-muted-foreground">
          {folderName === null && "That is the top level of your documents, outside any folder. "}
          Upload files above, or drop them here, to add them.
        </p>
      </div>
    );
  }
  return <DocumentRows documents={sortDocuments(documents.data, sort)} folders={folders} />;
}

type SearchResultsProps = {
  q: string;
  filters: SearchFilters;
  folders: readonly PickerFolder[];
  sort: DocumentSort | null;
  onOpenFolder: (folderId: string | null) => void;
};

/**
 * Documents from every folder whose name or text matches, within the filters, each with the folder
 * it is in (a click opens that folder) and, when only its text matched, a note saying so.
 */
export function SearchResults({ q, filters, folders, sort, onOpenFolder }: SearchResultsProps) {
  const results = useSearchDocuments(q, sort, filters);

  if (results.isPending) return <Spinner label="Searching…" className="w-full justify-center py-6" />;
  if (results.isError) {
    return (
      <LoadError message="The search failed." onRetry={() => void results.refetch()} isRetrying={results.isFetching} className="m-3 border-0 p-3" />
    );
  }
  if (results.data.length === 0) {
    return (
      <div className="px-4 py-8 text-center">
        <SearchX aria-hidden="true" className="mx-auto mb-3 size-8 text-muted-foreground" />
        <p className="font-medium">{q ? <>No documents match &quot;{q}&quot;.</> : "No documents match these filters."}</p>
        <p className="mt-1 text-sm text-muted-foreground">
          Search looks at file names, and the text inside PDFs and text files, in all of your folders.
        </p>
      </div>
    );
  }
  return <DocumentRows documents={results.data} folders={folders} onOpenFolder={onOpenFolder} label="Search results" />;
}

type DocumentRowsProps = {
  documents: ReadonlyArray<DocumentItem | DocumentSearchResult>;
  folders: readonly PickerFolder[];
  /** Search results show each document's folder; a click opens it. */
  onOpenFolder?: (folderId: string | null) => void;
  label?: string;
};

type Dialog = { kind: "rename" | "move" | "delete"; document: DocumentItem } | null;

/**
 * The rows, the viewer they open and their item menus' dialogs. The dialogs live here, not in
 * the rows: a document moved or deleted leaves the list, and its row with it.
 */
function DocumentRows({ documents, folders, onOpenFolder, label = "Documents" }: DocumentRowsProps) {
  const [viewing, setViewing] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const deleteDocument = useDeleteDocument();
  const move = useUpdateDocument();
  // The specification's Delete button sits in the row from 640 px; on phones it folds into the row's menu.
  const deleteInRow = useMediaQuery("(min-width: 640px)");
  const close = () => {
    setDialog(null);
    move.reset();
  };

  return (
    <>
      <ul aria-label={label} className="divide-y">
        {documents.map((document) => (
          <DocumentRow
            key={document.id}
            document={document}
            deleteInRow={deleteInRow}
            onView={() => setViewing(document.id)}
            onAction={(kind) => (kind === "view" ? setViewing(document.id) : setDialog({ kind, document }))}
            onOpenFolder={onOpenFolder}
          />
        ))}
      </ul>
      <DocumentViewer
        documents={documents}
        openId={viewing}
        onOpenIdChange={setViewing}
        previewUrl={(id) => `/api/documents/${id}/preview`}
        downloadUrl={(id) => `/api/documents/${id}/download`}
      />
      {dialog?.kind === "rename" && <RenameDocumentDialog document={dialog.document} onClose={close} />}
      {dialog?.kind === "move" && (
        <MoveToDialog
          itemName={dialog.document.original_filename}
          folders={folders}
          currentFolderId={dialog.document.folder_id}
          isPending={move.isPending}
          error={move.error ? (errorDetail(move.error) ?? "Failed to move document") : null}
          onClose={close}
          onMove={(folderId) =>
            move.mutate(
              { id: dialog.document.id, folder_id: folderId },
              {
                onSuccess: () => {
                  const target = folders.find((folder) => folder.id === folderId);
                  toast.success(`Moved "${dialog.document.original_filename}" to ${target ? `"${target.name}"` : "Documents (top level)"}`, {
                    id: "move",
                  });
                  close();
                },
              },
            )
          }
        />
      )}
      <AlertDialog open={dialog?.kind === "delete"} onOpenChange={(open) => !open && close()}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete document</AlertDialogTitle>
            <AlertDialogDescription>Are you sure you want to delete this document?</AlertDialogDescription>
          </AlertDialogHeader>
          {dialog && <FileName name={dialog.document.original_filename} />}
          <p className="text-sm text-muted-foreground">It stays in the Trash for 30 days, where you can restore it.</p>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => dialog && deleteDocument.mutate({ id: dialog.document.id })}>Delete</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
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

type RowAction = "view" | "rename" | "move" | "delete";

type DocumentRowProps = {
  document: DocumentItem | DocumentSearchResult;
  deleteInRow: boolean;
  onView: () => void;
  onAction: (kind: RowAction) => void;
  onOpenFolder?: (folderId: string | null) => void;
};

function DocumentRow({ document, deleteInRow, onView, onAction, onOpenFolder }: DocumentRowProps) {
  const name = document.original_filename;
  const chosen = useRef<RowAction | null>(null);
  const path = "folder_path" in document ? document.folder_path : null;

  return (
    <li
      {...dragSource({ kind: "document", id: document.id, name })}
      className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 px-4 py-2 transition-colors duration-150 hover:bg-muted/40 md:grid-cols-[1fr_8rem_6rem_10.5rem]"
    >
      <div className="flex min-w-0 items-center gap-3">
        <FileIcon name={name} className="size-5 shrink-0 text-muted-foreground" />
        <div className="grid min-w-0">
          <button
            type="button"
            onClick={onView}
            aria-haspopup="dialog"
            // The name's two halves are separate boxes, which would read as "report .pdf".
            aria-label={name}
            className="flex min-h-8 min-w-0 cursor-pointer items-center rounded-sm text-left hover:underline max-sm:min-h-11"
          >
            <FileName name={name} />
          </button>
          {document.from_firm && <FromFirmBadge />}
          {!document.from_firm && <UploadedBy name={document.uploaded_by_name} />}
          {"matched_in" in document && document.matched_in === "content" && (
            <span className="text-xs text-muted-foreground">
              <TextSearch aria-hidden="true" className="mr-1 inline size-3.5 align-[-2px]" />
              Found in the document&apos;s text
            </span>
          )}
          {path && onOpenFolder && <FolderPathButton path={path} onOpen={onOpenFolder} />}
        </div>
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
      <div className="col-start-2 row-span-2 row-start-1 flex items-center justify-end gap-1 md:col-start-auto md:row-span-1 md:row-start-auto">
        <Button asChild variant="ghost" size="icon-sm">
          <a href={`/api/documents/${document.id}/download`} download aria-label={`Download ${name}`}>
            <Download aria-hidden="true" />
          </a>
        </Button>
        {deleteInRow && (
          <Button variant="ghost-destructive" size="sm" aria-label={`Delete ${name}`} onClick={() => onAction("delete")}>
            <Trash aria-hidden="true" />
            Delete
          </Button>
        )}
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${name}`}>
              <EllipsisVertical aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          {/* The chosen dialog opens once the menu has given the focus back to its button: the dialog
              then returns it there, and the menu's focus return cannot pull it out of the dialog. */}
          <DropdownMenuContent
            onCloseAutoFocus={() => {
              const action = chosen.current;
              chosen.current = null;
              if (action) onAction(action);
            }}
          >
            <DropdownMenuItem onSelect={() => (chosen.current = "view")}>
              <FolderOpen aria-hidden="true" />
              Open
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => (chosen.current = "rename")}>
              <Pencil aria-hidden="true" />
              Rename
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => (chosen.current = "move")}>
              <FolderInput aria-hidden="true" />
              Move to...
            </DropdownMenuItem>
            {!deleteInRow && (
              <DropdownMenuItem variant="destructive" onSelect={() => (chosen.current = "delete")}>
                <Trash aria-hidden="true" />
                Delete
              </DropdownMenuItem>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </li>
  );
}

/** A document the firm shared: uploaded by the firm into the client's documents. */
function FromFirmBadge() {
  return (
    <Badge variant="success" className="justify-self-start">
      <Building2 aria-hidden="true" />
      From your firm
    </Badge>
  );
}

/**
 * Who of the account's people uploaded it, when it was someone else (an account may be shared by a
 * household or a business): the viewer's own uploads stay unmarked, as they were before accounts.
 */
function UploadedBy({ name }: { name: string | null }) {
  const { user } = useCurrentUser();
  if (!name || !user || name === user.name || name === user.username) return null;
  return <span className="truncate text-xs text-muted-foreground">Uploaded by {name}</span>;
}

function FolderPathButton({ path, onOpen }: { path: DocumentSearchResult["folder_path"]; onOpen: (folderId: string | null) => void }) {
  const text = path.length === 0 ? "Root" : path.map((folder) => folder.name).join(" / ");
  return (
    <button
      type="button"
      onClick={() => onOpen(path.at(-1)?.id ?? null)}
      title={text}
      className="flex min-h-6 min-w-0 cursor-pointer items-center gap-1 justify-self-start rounded-sm text-xs text-muted-foreground hover:text-foreground hover:underline max-sm:min-h-11"
    >
      <House aria-hidden="true" className="size-3 shrink-0" />
      <span className="sr-only">In folder </span>
      <span className="truncate">{text}</span>
    </button>
  );
}
