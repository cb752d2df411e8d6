import { DOCUMENT_SORTS } from "@server/domains/documents/schemas.ts";

export type DocumentSortKey = (typeof DOCUMENT_SORTS)[number];
type SortOrder = "asc" | "desc";
export type DocumentSort = { sort: DocumentSortKey; order: SortOrder };

/** The sort a URL asks for (`?sort=name&order=asc`); null when it asks for none (the server's order). */
export function parseDocumentSort(params: URLSearchParams): DocumentSort | null {
  const sort = params.get("sort");
  if (!DOCUMENT_SORTS.some((key) => key === sort)) return null;
  const order = params.get("order");
  return { sort: sort as DocumentSortKey, order: order === "asc" || order === "desc" ? order : defaultOrder(sort as DocumentSortKey) };
}

/** Names A to Z, the newest and the largest first: what a click on a column means first. */
function defaultOrder(sort: DocumentSortKey): SortOrder {
  return sort === "name" ? "asc" : "desc";
}

/** A click on a column's header: that column in its first order, or the other order when it is already the one. */
export function nextSort(current: DocumentSort | null, sort: DocumentSortKey): DocumentSort {
  if (current?.sort === sort) return { sort, order: current.order === "asc" ? "desc" : "asc" };
  return { sort, order: defaultOrder(sort) };
}

type Sortable = { original_filename: string; upload_date: Date; file_size: number; id: string };

const nameOrder = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/** Sorts a folder's documents on the client the way the server sorts a search. */
export function sortDocuments<T extends Sortable>(documents: readonly T[], sort: DocumentSort | null): T[] {
  if (!sort) return [...documents];
  const sign = sort.order === "asc" ? 1 : -1;
  const compare = (a: T, b: T): number => {
    if (sort.sort === "name") return nameOrder.compare(a.original_filename, b.original_filename);
    if (sort.sort === "size") return a.file_size - b.file_size;
    return a.upload_date.getTime() - b.upload_date.getTime();
  };
  return [...documents].sort((a, b) => sign * compare(a, b) || sign * a.id.localeCompare(b.id));
}
