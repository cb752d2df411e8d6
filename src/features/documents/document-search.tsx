import { useEffect, useState } from "react";
import { Check, Search, SlidersHorizontal } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { useDebouncedValue } from "@/lib/use-debounced-value.ts";
import type { DOCUMENT_SOURCES } from "@server/domains/documents/schemas.ts";

/** The search's filters (issue 34): whose documents, and the year they were uploaded; null: any. */
export type SearchFilters = { source: (typeof DOCUMENT_SOURCES)[number] | null; year: number | null };

type DocumentSearchProps = {
  /** The search in the URL; "" for none. */
  q: string;
  onSearch: (q: string) => void;
  filters: SearchFilters;
  onFilter: (filters: SearchFilters) => void;
};

const SOURCE_LABELS = { firm: "From your firm", client: "Your uploads" } as const;

/**
 * The search box over all of the client's folders, with its filter chips. What is typed goes to the
 * URL once typing pauses (one request per pause, and reload or Back keep the search); a search
 * changed from outside (Back, opening a result's folder) shows in the box. A chip is a toggle that
 * applies at once; the source chips exclude each other, as do the years (this one and the two
 * before: a season's documents and the returns they are compared with). The chips show while a
 * search or a filter is on; otherwise a Filters button beside the box opens them, so the dashboard's
 * first screen keeps its room for the documents.
 */
export function DocumentSearch({ q, onSearch, filters, onFilter }: DocumentSearchProps) {
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q);
  }
  const settled = useDebouncedValue(text, 300);
  const [opened, setOpened] = useState(false);
  const showChips = opened || q !== "" || filters.source !== null || filters.year !== null;

  useEffect(() => {
    // Only once the box has stopped changing: a stale debounced value must not undo a change from outside.
    if (settled === text && settled.trim() !== q) onSearch(settled.trim());
  }, [settled, text, q, onSearch]);

  const thisYear = new Date().getFullYear();
  const years = [thisYear, thisYear - 1, thisYear - 2];
  if (filters.year !== null && !years.includes(filters.year)) years.push(filters.year);

  return (
    <search className="grid w-full gap-2 sm:max-w-xl">
      <div className="flex gap-2 sm:max-w-sm">
        <div className="relative min-w-0 flex-1">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            type="search"
            aria-label="Search all documents"
            placeholder="Search names and contents"
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") onSearch(text.trim());
            }}
            maxLength={200}
            className="pl-9"
          />
        </div>
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label="Filters"
          aria-expanded={showChips}
          onClick={() => setOpened(!showChips)}
          className="shrink-0 max-sm:size-11"
        >
          <SlidersHorizontal aria-hidden="true" />
        </Button>
      </div>
      {showChips && (
        <div role="group" aria-label="Filter documents" className="flex flex-wrap gap-1.5">
          {(["firm", "client"] as const).map((source) => (
            <FilterChip key={source} pressed={filters.source === source} onToggle={(on) => onFilter({ ...filters, source: on ? source : null })}>
              {SOURCE_LABELS[source]}
            </FilterChip>
          ))}
          {years.map((year) => (
            <FilterChip key={year} pressed={filters.year === year} onToggle={(on) => onFilter({ ...filters, year: on ? year : null })}>
              {year}
            </FilterChip>
          ))}
        </div>
      )}
    </search>
  );
}

function FilterChip({ pressed, onToggle, children }: { pressed: boolean; onToggle: (on: boolean) => void; children: React.ReactNode }) {
  return (
    <Button
      type="button"
      variant={pressed ? "secondary" : "outline"}
      size="sm"
      aria-pressed={pressed}
      onClick={() => onToggle(!pressed)}
      className="rounded-full max-sm:min-h-11"
    >
      {pressed && <Check aria-hidden="true" />}
      {children}
    </Button>
  );
}

/** What the filters say, for the line above the results ("" without any). */
export function describeFilters(filters: SearchFilters): string {
  const parts = [filters.source ? SOURCE_LABELS[filters.source].toLowerCase() : null, filters.year ? `uploaded in ${filters.year}` : null];
  return parts.filter(Boolean).join(", ");
}
