import { EllipsisVertical, Folder as FolderIcon, Trash } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu.tsx";
import type { Folder } from "../../../server/routers/folders/schemas.ts";
import { useDeleteFolder } from "./use-delete-folder.ts";

type FolderGridProps = {
  folders: readonly Folder[];
  onOpen: (folderId: string) => void;
};

/** The folders inside the current folder, as cards; each opens on click and has a menu. */
export function FolderGrid({ folders, onOpen }: FolderGridProps) {
  const deleteFolder = useDeleteFolder();
  if (folders.length === 0) return null;

  return (
    <ul aria-label="Folders" className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 md:grid-cols-3 lg:grid-cols-4">
      {folders.map((folder) => (
        <li key={folder.id} className="relative flex items-center rounded-xl border bg-card transition-colors duration-150 hover:border-input">
          <button
            type="button"
            onClick={() => onOpen(folder.id)}
            className="flex min-w-0 flex-1 cursor-pointer items-center gap-3 rounded-xl py-3.5 pr-12 pl-4 text-left"
          >
            <FolderIcon aria-hidden="true" className="size-6 shrink-0" style={{ color: folder.color, fill: `${folder.color}33` }} />
            <span className="truncate text-sm font-medium">{folder.name}</span>
          </button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon-sm" className="absolute right-1.5" aria-label={`Actions for folder ${folder.name}`}>
                <EllipsisVertical aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem
                variant="destructive"
                disabled={deleteFolder.isPending}
                onSelect={() => deleteFolder.mutate({ id: folder.id })}
              >
                <Trash aria-hidden="true" />
                Delete Folder
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </li>
      ))}
    </ul>
  );
}
