import { useState } from "react";
import { useDebouncedValue } from "./use-debounced-value.ts";

const SEARCH_DEBOUNCE_MS = 300;

/**
 * State of a server-paginated, searchable list: the search text as typed, and the input for the
 * list query (`q` settles after a pause; `cursor` is the page's offset from the server's
 * `nextCursor`). A new search starts again at the first page.
 */
export function useServerPaging(pageSize = 50) {
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // The cursors of the pages before the current one, so Previous can go back.
  const [paging, setPaging] = useState<{ q: string; cursors: number[]; cursor: number | undefined }>({
    q: "",
    cursors: [],
    cursor: undefined,
  });
  const current = paging.q === q ? paging : { q, cursors: [], cursor: undefined };

  return {
    search,
    setSearch,
    input: { q: q || undefined, cursor: current.cursor, limit: pageSize },
    /** Zero-based index of the first row on this page. */
    offset: current.cursor ?? 0,
    hasPrevious: current.cursors.length > 0 || current.cursor !== undefined,
    goNext(nextCursor: number) {
      setPaging({ q, cursors: [...current.cursors, current.cursor ?? 0], cursor: nextCursor });
    },
    goPrevious() {
      const cursors = current.cursors.slice(0, -1);
      const previous = current.cursors.at(-1);
      setPaging({ q, cursors, cursor: previous === 0 ? undefined : previous });
    },
  };
}

export type ServerPaging = ReturnType<typeof useServerPaging>;
