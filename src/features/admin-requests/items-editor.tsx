import { useRef } from "react";
import { Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { MAX_REQUEST_ITEMS } from "@server/domains/requests/schemas.ts";

/** One row of the editor: a stable key (rows come and go) and the item's title. */
export type ItemRow = { key: number; title: string };

let nextKey = 0;
export function itemRows(titles: readonly string[]): ItemRow[] {
  return titles.map((title) => ({ key: nextKey++, title }));
}

/** The titles to send: trimmed, blank rows left out. */
export function itemTitles(rows: readonly ItemRow[]): Array<{ title: string }> {
  return rows
    .map((row) => row.title.trim())
    .filter(Boolean)
    .map((title) => ({ title }));
}

/**
 * A request's or a template's checklist: one row per document the client is asked for, added and
 * removed in place. A new row takes the focus; a removed row gives it to Add item.
 */
export function ItemsEditor({ rows, onChange, label = "Checklist items" }: { rows: ItemRow[]; onChange: (rows: ItemRow[]) => void; label?: string }) {
  const focusKey = useRef<number | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-1 text-sm font-medium">
        {label} <span className="font-normal text-muted-foreground">(optional)</span>
      </legend>
      <p className="text-xs text-muted-foreground">One line per document. The client uploads to each and sees its status.</p>
      {rows.length > 0 && (
        <ol className="grid gap-2">
          {rows.map((row, index) => (
            <li key={row.key} className="flex min-w-0 items-center gap-2">
              <Input
                ref={(element) => {
                  if (element && focusKey.current === row.key) {
                    focusKey.current = null;
                    element.focus();
                  }
                }}
                aria-label={`Item ${index + 1}`}
                value={row.title}
                placeholder={index === 0 ? "2025 W-2 from each employer" : "Property tax bill"}
                maxLength={200}
                onChange={(event) => onChange(rows.map((r) => (r.key === row.key ? { ...r, title: event.target.value } : r)))}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Remove item ${index + 1}${row.title.trim() ? `: ${row.title.trim()}` : ""}`}
                onClick={() => {
                  onChange(rows.filter((r) => r.key !== row.key));
                  addButton.current?.focus();
                }}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ol>
      )}
      <Button
        ref={addButton}
        type="button"
        variant="outline"
        size="sm"
        className="w-fit"
        disabled={rows.length >= MAX_REQUEST_ITEMS}
        onClick={() => {
          const [row] = itemRows([""]);
          focusKey.current = row!.key;
          onChange([...rows, row!]);
        }}
      >
        <Plus aria-hidden="true" />
        Add item
      </Button>
    </fieldset>
  );
}
