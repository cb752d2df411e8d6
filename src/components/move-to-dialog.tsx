import { type FormEvent, type ReactNode, useState } from "react";
import { Folder as FolderIcon, House } from "lucide-react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { cn } from "@/lib/cn.ts";
import { folderTree } from "@/lib/folder-tree.ts";

type PickerFolder = { id: string; name: string; parent_folder_id: string | null; color: string };

type MoveToDialogProps = {
  /** What is moved, for the title: `Move "W-2.pdf"`. */
  itemName: string;
  folders: readonly PickerFolder[];
  /** Where the item is now (null: the root); offered but not choosable. */
  currentFolderId: string | null;
  /** Folders it cannot go into: for a folder, itself and everything below it. */
  excludedIds?: ReadonlySet<string>;
  onMove: (folderId: string | null) => void;
  isPending: boolean;
  /** The server's refusal, shown in the dialog. */
  error: string | null;
  onClose: () => void;
};

const ROOT = "root";

/**
 * "Move to...": the client's whole folder tree as one group of radio buttons (arrow keys choose,
 * Enter moves), with the root first. The keyboard's way to do what dragging onto a folder does.
 */
export function MoveToDialog({ itemName, folders, currentFolderId, excludedIds, onMove, isPending, error, onClose }: MoveToDialogProps) {
  const [choice, setChoice] = useState<string | null>(null);
  const rows = folderTree(folders);
  const current = currentFolderId ?? ROOT;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === null || isPending) return;
    onMove(choice === ROOT ? null : choice);
  };

  const option = (value: string, label: string, depth: number, icon: ReactNode) => {
    const isCurrent = value === current;
    const disabled = isCurrent || (excludedIds?.has(value) ?? false);
    return (
      <label
        key={value}
        className={cn(
          "flex min-h-10 cursor-pointer items-center gap-2 rounded-md px-2 text-sm has-checked:bg-accent-soft has-checked:font-medium has-focus-visible:outline-2 has-focus-visible:outline-ring hover:bg-muted max-sm:min-h-11",
          disabled && "cursor-not-allowed text-muted-foreground hover:bg-transparent",
        )}
        style={{ paddingLeft: `${0.5 + depth * 1.25}rem` }}
      >
        <input
          type="radio"
          name="move-destination"
          value={value}
          checked={choice === value}
          disabled={disabled}
          onChange={() => setChoice(value)}
          className="sr-only"
        />
        {icon}
        <span className="truncate">{label}</span>
        {isCurrent && <span className="shrink-0 text-xs text-muted-foreground">(current folder)</span>}
      </label>
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid min-w-0 gap-4">
          <DialogHeader>
            <DialogTitle className="truncate">Move &quot;{itemName}&quot;</DialogTitle>
            <DialogDescription>Choose the folder to move it to.</DialogDescription>
          </DialogHeader>
          <fieldset className="min-w-0">
            <legend className="sr-only">Destination folder</legend>
            <div className="grid max-h-[50dvh] gap-0.5 overflow-y-auto rounded-lg border p-1">
              {option(ROOT, "Documents (top level)", 0, <House aria-hidden="true" className="size-4 shrink-0" />)}
              {rows.map(({ folder, depth }) =>
                option(
                  folder.id,
                  folder.name,
                  depth + 1,
                  <FolderIcon aria-hidden="true" className="size-4 shrink-0" style={{ color: folder.color, fill: `${folder.color}33` }} />,
                ),
              )}
            </div>
          </fieldset>
          <FormDialogFooter problem={error} pending={isPending} disabled={choice === null} submitLabel="Move" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
