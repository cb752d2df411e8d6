import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { cn } from "@/lib/cn.ts";
import { type DocumentSort, type DocumentSortKey, nextSort } from "@/lib/document-sort.ts";

const COLUMNS: Array<{ key: DocumentSortKey; label: string; className: string }> = [
  { key: "name", label: "Name", className: "md:justify-self-start" },
  { key: "date", label: "Uploaded", className: "md:justify-self-end" },
  { key: "size", label: "Size", className: "md:justify-self-end" },
];

const ORDER_WORDS: Record<DocumentSortKey, Record<DocumentSort["order"], string>> = {
  name: { asc: "A to Z", desc: "Z to A" },
  date: { asc: "oldest first", desc: "newest first" },
  size: { asc: "smallest first", desc: "largest first" },
};

/**
 * The list's column headers, each a button that sorts by it (a second click reverses the
 * order). Above the rows' columns on wide screens; one short row of buttons on a phone.
 */
export function SortHeader({ sort, onSort }: { sort: DocumentSort | null; onSort: (sort: DocumentSort) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-x-1 gap-y-1 bg-muted/40 px-2 py-1 text-xs font-medium text-muted-foreground md:grid md:grid-cols-[1fr_8rem_6rem_10.5rem] md:gap-x-4 md:px-2">
      <span className="px-2 md:hidden">Sort by</span>
      {COLUMNS.map((column) => {
        const active = sort?.sort === column.key;
        const Icon = !active ? ArrowUpDown : sort.order === "asc" ? ArrowUp : ArrowDown;
        return (
          <button
            key={column.key}
            type="button"
            aria-pressed={active}
            aria-label={`Sort by ${column.label.toLowerCase()}`}
            onClick={() => onSort(nextSort(sort, column.key))}
            className={cn(
              "inline-flex cursor-pointer items-center gap-1 rounded-md px-2 py-1 transition-colors hover:bg-muted hover:text-foreground max-sm:min-h-11",
              active && "text-foreground",
              column.className,
            )}
          >
            {column.label}
            <Icon aria-hidden="true" className={cn("size-3.5", !active && "opacity-50")} />
          </button>
        );
      })}
      <p aria-live="polite" className="sr-only">
        {sort ? `Sorted by ${sort.sort === "date" ? "upload date" : sort.sort}, ${ORDER_WORDS[sort.sort][sort.order]}` : ""}
      </p>
    </div>
  );
}
