import { useEffect, useState } from "react";
import { Search } from "lucide-react";
import { Input } from "@/components/ui/input.tsx";
import { useDebouncedValue } from "@/lib/use-debounced-value.ts";

type DocumentSearchProps = {
  /** The search in the URL; "" for none. */
  q: string;
  onSearch: (q: string) => void;
};

/**
 * The search box over all of the client's folders. What is typed goes to the URL once typing
 * pauses (one request per pause, and reload or Back keep the search); a search changed from
 * outside (Back, opening a result's folder) shows in the box.
 */
export function DocumentSearch({ q, onSearch }: DocumentSearchProps) {
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q);
  }
  const settled = useDebouncedValue(text, 300);

  useEffect(() => {
    // Only once the box has stopped changing: a stale debounced value must not undo a change from outside.
    if (settled === text && settled.trim() !== q) onSearch(settled.trim());
  }, [settled, text, q, onSearch]);

  return (
    <search className="relative w-full sm:max-w-sm">
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        type="search"
        aria-label="Search all documents"
        placeholder="Search all documents"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") onSearch(text.trim());
        }}
        maxLength={200}
        className="pl-9"
      />
    </search>
  );
}
