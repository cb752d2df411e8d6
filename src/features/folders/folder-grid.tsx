import { useRef, useState } from "react";
import { Download, EllipsisVertical, Folder as FolderIcon, FolderInput, Lock, Pencil, Trash } from "lucide-react";
import { toast } from "sonner";
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
import { Button } from "@/components/ui/button.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { cn } from "@/lib/cn.ts";
import { type DragItem, dragSource, useDropTarget } from "@/lib/drag-item.ts";
import { folderAndDescendants } from "@/lib/folder-tree.ts";
import { trpc } from "@/lib/trpc.ts";
import type { Folder } from "@server/domains/folders/schemas.ts";
import { describeContents } from "./folder-contents.ts";
import { RenameFolderDialog } from "./rename-folder-dialog.tsx";
import { useDeleteFolder } from "./use-delete-folder.ts";
import { useUpdateFolder } from "./use-update-folder.ts";

type FolderGridProps = {
  folders: readonly Folder[];
  /** Every folder of the client, for "Move to...". */
  allFolders: readonly Folder[];
  /** How many folders each folder holds directly, from the folder list the page has. */
  subfolderCount: (folderId: string) => number;
  onOpen: (folderId: string) => void;
  /** A document or folder dragged onto one of these folders. */
  onDropItem: (item: DragItem, folder: Folder) => void;
};

type FolderAction = { kind: "rename" | "move" | "delete"; folder: Folder } | null;

/**
 * The folders inside the current folder, as the first rows of the folder's list; each opens on
 * click, has a menu, can be dragged onto another folder and takes documents and folders dropped on it.
 */
export function FolderGrid({ folders, allFolders, subfolderCount, onOpen, onDropItem }: FolderGridProps) {
  const [action, setAction] = useState<FolderAction>(null);
  const move = useUpdateFolder();
  const close = () => {
    setAction(null);
    move.reset();
  };
  if (folders.length === 0 && action === null) return null;

  return (
    <>
      {folders.length > 0 && (
        <ul aria-label="Folders" className="divide-y">
          {folders.map((folder) => (
            <FolderRow key={folder.id} folder={folder} onOpen={onOpen} onAction={(kind) => setAction({ kind, folder })} onDropItem={onDropItem} />
          ))}
        </ul>
      )}
      {action?.kind === "rename" && <RenameFolderDialog key={action.folder.id} folder={action.folder} onClose={close} />}
      {action?.kind === "move" && (
        <MoveToDialog
          itemName={action.folder.name}
          folders={allFolders}
          currentFolderId={action.folder.parent_folder_id}
          excludedIds={folderAndDescendants(allFolders, action.folder.id)}
          isPending={move.isPending}
          error={move.error ? (errorDetail(move.error) ?? "Failed to move folder") : null}
          onClose={close}
          onMove={(parentId) =>
            move.mutate(
              { id: action.folder.id, parent_folder_id: parentId },
              {
                onSuccess: () => {
                  const target = allFolders.find((folder) => folder.id === parentId);
                  toast.success(`Moved "${action.folder.name}" to ${target ? `"${target.name}"` : "Documents (top level)"}`, { id: "move" });
                  close();
                },
              },
            )
          }
        />
      )}
      {action?.kind === "delete" && (
        <DeleteFolderDialog
          key={action.folder.id}
          folder={action.folder}
          subfolders={subfolderCount(action.folder.id)}
          onOpenFolder={() => {
            close();
            onOpen(action.folder.id);
          }}
          onClose={close}
        />
      )}
    </>
  );
}

type FolderRowProps = {
  folder: Folder;
  onOpen: (folderId: string) => void;
  onAction: (kind: "rename" | "move" | "delete") => void;
  onDropItem: (item: DragItem, folder: Folder) => void;
};

function FolderRow({ folder, onOpen, onAction, onDropItem }: FolderRowProps) {
  const chosen = useRef<"rename" | "move" | "delete" | null>(null);
  const drop = useDropTarget((item) => item.id !== folder.id && onDropItem(item, folder));
  return (
    <li
      {...dragSource({ kind: "folder", id: folder.id, name: folder.name })}
      {...drop.props}
      data-drop-target={drop.over || undefined}
      className={cn(
        "relative flex items-center transition-colors duration-150 hover:bg-muted/50",
        drop.over && "bg-accent-soft outline-2 -outline-offset-2 outline-accent outline-dashed",
      )}
    >
      <button
        type="button"
        onClick={() => onOpen(folder.id)}
        className="flex min-h-12 min-w-0 flex-1 cursor-pointer items-center gap-3 py-2.5 pr-14 pl-4 text-left"
      >
        <FolderIcon aria-hidden="true" className="size-5 shrink-0" style={{ color: folder.color, fill: `${folder.color}33` }} />
        <span className="truncate text-sm font-medium">{folder.name}</span>
        {folder.is_private && (
          <span className="inline-flex shrink-0 items-center gap-1 text-xs text-muted-foreground">
            <Lock aria-hidden="true" className="size-3" />
            Only you and your firm
          </span>
        )}
      </button>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon-sm" className="absolute right-2" aria-label={`Actions for folder ${folder.name}`}>
            <EllipsisVertical aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        {/* The chosen dialog opens once the menu has given the focus back to its button (see document-list.tsx). */}
        <DropdownMenuContent
          onCloseAutoFocus={() => {
            const action = chosen.current;
            chosen.current = null;
            if (action) onAction(action);
          }}
        >
          <DropdownMenuItem onSelect={() => (chosen.current = "rename")}>
            <Pencil aria-hidden="true" />
            Rename
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => (chosen.current = "move")}>
            <FolderInput aria-hidden="true" />
            Move to...
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <a href={`/api/folders/${folder.id}/download`} download>
              <Download aria-hidden="true" />
              Download folder
            </a>
          </DropdownMenuItem>
          <DropdownMenuItem variant="destructive" onSelect={() => (chosen.current = "delete")}>
            <Trash aria-hidden="true" />
            Delete Folder
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
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
