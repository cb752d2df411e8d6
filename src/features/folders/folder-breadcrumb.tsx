import { ArrowLeft, ChevronRight, House } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";

type Crumb = { id: string; name: string };

type FolderBreadcrumbProps = {
  /** From the top-level folder down to the current one; empty at the root. */
  path: readonly Crumb[];
  onNavigate: (folderId: string | null) => void;
};

/** Root, then one crumb per folder; a crumb goes back to that folder and Back to the parent. */
export function FolderBreadcrumb({ path, onNavigate }: FolderBreadcrumbProps) {
  const parent = path.length > 1 ? path[path.length - 2]! : null;
  const crumbClasses =
    "inline-flex items-center rounded-sm px-1 py-0.5 max-sm:min-h-11 text-muted-foreground transition-colors hover:text-foreground hover:underline cursor-pointer";

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
                <House aria-hidden="true" className="size-4" />
                Root
              </span>
            ) : (
              <button type="button" onClick={() => onNavigate(null)} className={`flex items-center gap-1.5 ${crumbClasses}`}>
                <House aria-hidden="true" className="size-4" />
                Root
              </button>
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
                <button type="button" onClick={() => onNavigate(folder.id)} className={`truncate ${crumbClasses}`}>
                  {folder.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
    </div>
  );
}
