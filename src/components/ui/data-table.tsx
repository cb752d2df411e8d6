import type { ReactNode } from "react";
import { ChevronLeft, ChevronRight, Search } from "lucide-react";
import { cn } from "@/lib/cn.ts";
import type { ServerPaging } from "@/lib/use-server-paging.ts";
import { Button } from "./button.tsx";
import { Input } from "./input.tsx";
import { LoadError } from "./load-error.tsx";
import { Spinner } from "./spinner.tsx";

export type DataTableColumn<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Classes for the header and the cells of this column (alignment, width, hiding on mobile). */
  className?: string;
};

/** The parts of a React Query result over one server page that the table shows. */
export type PageQuery<Row> = {
  data?: { items: Row[]; total: number; nextCursor: number | null };
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
};

type DataTableProps<Row> = {
  /** Names the table for screen readers (its caption). */
  caption: string;
  searchLabel: string;
  columns: DataTableColumn<Row>[];
  query: PageQuery<Row>;
  rowKey: (row: Row) => string;
  paging: ServerPaging;
  emptyText: string;
  /** Controls beside the search box (for example a New button). */
  toolbar?: ReactNode;
};

/** A dense table of one server page, with a debounced search box and Previous/Next paging. */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { caption, columns, query, paging } = props;
  const rows = query.data?.items;
  const total = query.data?.total;
  const nextCursor = query.data?.nextCursor;
  const first = paging.offset + 1;
  const last = paging.offset + (rows?.length ?? 0);
  const range = total === undefined ? "" : total === 0 ? "No results" : `${first}–${last} of ${total}`;

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="relative w-full sm:max-w-xs">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            type="search"
            aria-label={props.searchLabel}
            placeholder={props.searchLabel}
            value={paging.search}
            onChange={(event) => paging.setSearch(event.target.value)}
            className="pl-9"
          />
        </div>
        {props.toolbar}
      </div>

      <div className="overflow-x-auto rounded-xl border bg-card">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-muted/60 text-left text-xs font-medium text-muted-foreground">
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col" className={cn("px-4 py-2.5 font-medium whitespace-nowrap", column.className)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody aria-busy={query.isFetching || undefined}>
            {rows?.map((row) => (
              <tr key={props.rowKey(row)} className="border-t align-middle">
                {columns.map((column) => (
                  <td key={column.header} className={cn("px-4 py-3", column.className)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
            {rows && rows.length === 0 && (
              <tr className="border-t">
                <td colSpan={columns.length} className="px-4 py-10 text-center text-muted-foreground">
                  {props.emptyText}
                </td>
              </tr>
            )}
            {query.isPending && !query.isError && (
              <tr>
                <td colSpan={columns.length} className="px-4 py-10 text-center">
                  <Spinner label={`Loading ${caption.toLowerCase()}…`} />
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {query.isError && !rows && (
        <LoadError message={`Failed to load ${caption.toLowerCase()}.`} onRetry={() => query.refetch()} isRetrying={query.isFetching} />
      )}

      <nav aria-label={`${caption} pages`} className="flex items-center justify-between gap-3 text-sm">
        <p aria-live="polite" className="text-muted-foreground tabular-nums">
          {range}
        </p>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={!paging.hasPrevious} onClick={paging.goPrevious}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={nextCursor === null || nextCursor === undefined}
            onClick={() => nextCursor != null && paging.goNext(nextCursor)}
          >
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </nav>
    </div>
  );
}
