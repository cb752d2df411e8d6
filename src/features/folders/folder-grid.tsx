import { useState } from "react";
import { EllipsisVertical, Folder as FolderIcon, Trash } from "lucide-react";
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
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { trpc } from "@/lib/trpc.ts";
import type { Folder } from "@server/routers/folders/schemas.ts";
import { describeContents } from "./folder-contents.ts";
import { useDeleteFolder } from "./use-delete-folder.ts";

type FolderGridProps = {
  folders: readonly Folder[];
  /** How many folders each folder holds directly, from the folder list the page has. */
  subfolderCount: (folderId: string) => number;
  onOpen: (folderId: string) => void;
};

/** The folders inside the current folder, as the first rows of the folder's list; each opens on click and has a menu. */
export function FolderGrid({ folders, subfolderCount, onOpen }: FolderGridProps) {
  const [deleting, setDeleting] = useState<Folder | null>(null);
  if (folders.length === 0) return null;

  return (
    <>
      <ul aria-label="Folders" className="divide-y">
        {folders.map((folder) => (
          <li key={folder.id} className="relative flex items-center transition-colors duration-150 hover:bg-muted/50">
            <button
              type="button"
              onClick={() => onOpen(folder.id)}
              className="flex min-h-12 min-w-0 flex-1 cursor-pointer items-center gap-3 py-2.5 pr-14 pl-4 text-left"
            >
              <FolderIcon aria-hidden="true" className="size-5 shrink-0" style={{ color: folder.color, fill: `${folder.color}33` }} />
              <span className="truncate text-sm font-medium">{folder.name}</span>
            </button>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon-sm" className="absolute right-2" aria-label={`Actions for folder ${folder.name}`}>
                  <EllipsisVertical aria-hidden="true" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent>
                <DropdownMenuItem variant="destructive" onSelect={() => setDeleting(folder)}>
                  <Trash aria-hidden="true" />
                  Delete Folder
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </li>
        ))}
      </ul>
      {deleting && (
        <DeleteFolderDialog
          key={deleting.id}
          folder={deleting}
          subfolders={subfolderCount(deleting.id)}
          onOpenFolder={() => {
            setDeleting(null);
            onOpen(deleting.id);
          }}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}

type DeleteFolderDialogProps = {
  folder: Folder;
  subfolders: number;
  onOpenFolder: () => void;
  onClose: () => void;
};

/**
 * Every folder deletion is confirmed. The server refuses a folder that holds anything, so for one
 * that does the dialog says what it holds and what to do, instead of offering a Delete that fails.
 */
function DeleteFolderDialog({ folder, subfolders, onOpenFolder, onClose }: DeleteFolderDialogProps) {
  const deleteFolder = useDeleteFolder();
  const documents = trpc.documents.inFolder.useQuery({ folder_id: folder.id }, { staleTime: 0 });
  // When the count cannot be had, Delete is offered and the server's own refusal explains.
  const contents = documents.isPending
    ? "counting"
    : documents.isError || (documents.data.length === 0 && subfolders === 0)
      ? "deletable"
      : "not-empty";

  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{contents === "not-empty" ? "This folder is not empty" : "Delete folder"}</AlertDialogTitle>
          <AlertDialogDescription>
            {contents === "not-empty"
              ? `"${folder.name}" holds ${describeContents(documents.data?.length ?? 0, subfolders)}. Delete or move them first, then delete the folder.`
              : `Are you sure you want to delete the folder "${folder.name}"?`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {contents === "counting" && <Spinner label="Checking what the folder holds…" className="justify-center" />}
        <AlertDialogFooter>
          <AlertDialogCancel>{contents === "not-empty" ? "Close" : "Cancel"}</AlertDialogCancel>
          {contents === "not-empty" ? (
            <AlertDialogAction variant="default" onClick={onOpenFolder}>
              Open Folder
            </AlertDialogAction>
          ) : (
            <AlertDialogAction disabled={contents === "counting"} onClick={() => deleteFolder.mutate({ id: folder.id })}>
              Delete Folder
            </AlertDialogAction>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
