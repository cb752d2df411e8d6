import type { ReactNode } from "react";
import { ArrowLeft, ChevronRight, House } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/lib/cn.ts";
import { type DragItem, useDropTarget } from "@/lib/drag-item.ts";

type Crumb = { id: string; name: string };

type FolderBreadcrumbProps = {
  /** From the top-level folder down to the current one; empty at the root. */
  path: readonly Crumb[];
  onNavigate: (folderId: string | null) => void;
  /** A document or folder dragged onto a crumb above the current folder (null: the root); without it, crumbs take no drops. */
  onDropItem?: (item: DragItem, folderId: string | null, folderName: string | null) => void;
};

/** Root, then one crumb per folder; a crumb goes back to that folder and Back to the parent. Crumbs take dropped items when `onDropItem` is given. */
export function FolderBreadcrumb({ path, onNavigate, onDropItem }: FolderBreadcrumbProps) {
  const parent = path.length > 1 ? path[path.length - 2]! : null;
  const rootLabel = (
    <>
      <House aria-hidden="true" className="size-4" />
      Root
    </>
  );

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      {path.length > 0 && (
        <Button variant="ghost" size="sm" onClick={() => onNavigate(parent?.id ?? null)}>
          <ArrowLeft aria-hidden="true" />
          Back
        </Button>
      )}
      <nav aria-label="Folder path" className="min-w-0">
        <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
          <li className="flex items-center">
            {path.length === 0 ? (
              <span aria-current="page" className="flex items-center gap-1.5 px-1 py-0.5 font-medium">
                {rootLabel}
              </span>
            ) : (
              <CrumbButton onClick={() => onNavigate(null)} onDrop={onDropItem && ((item) => onDropItem(item, null, null))} className="gap-1.5">
                {rootLabel}
              </CrumbButton>
            )}
          </li>
          {path.map((folder, index) => (
            <li key={folder.id} className="flex min-w-0 items-center gap-1">
              <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              {index === path.length - 1 ? (
                <span aria-current="page" className="truncate px-1 py-0.5 font-medium">
                  {folder.name}
                </span>
              ) : (
                <CrumbButton
                  onClick={() => onNavigate(folder.id)}
                  onDrop={onDropItem && ((item) => onDropItem(item, folder.id, folder.name))}
                  className="truncate"
                >
                  {folder.name}
                </CrumbButton>
              )}
            </li>
          ))}
        </ol>
      </nav>
    </div>
  );
}

function CrumbButton({
  onClick,
  onDrop,
  className,
  children,
}: {
  onClick: () => void;
  onDrop: ((item: DragItem) => void) | undefined;
  className: string;
  children: ReactNode;
}) {
  const drop = useDropTarget(onDrop ?? null);
  return (
    <button
      type="button"
      onClick={onClick}
      {...drop.props}
      data-drop-target={drop.over || undefined}
      className={cn(
        "inline-flex cursor-pointer items-center rounded-sm px-1 py-0.5 text-muted-foreground transition-colors hover:text-foreground hover:underline max-sm:min-h-11",
        drop.over && "bg-accent-soft text-accent-soft-foreground outline-2 outline-accent outline-dashed",
        className,
      )}
    >
      {children}
    </button>
  );
}
