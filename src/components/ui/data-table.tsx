import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { ChevronLeft, ChevronRight, Search } from "lucide-react";
import { cn } from "@/lib/cn.ts";
import { useMediaQuery } from "@/lib/use-media-query.ts";
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
  /**
   * Its place in a row's card on phones: the card's heading, the buttons at its foot, or (by
   * default) a line under its header. Cards show every column, also those the table hides.
   */
  card?: "title" | "actions";
};

/** The parts of a React Query result over one server page that the table shows. */
type PageQuery<Row> = {
  data?: { items: Row[]; total: number; totalCapped?: boolean; nextCursor: number | null };
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

/**
 * A dense table of one server page, with a debounced search box and Previous/Next paging. On
 * phones each row is a card instead: a table that scrolls sideways hides most of its columns.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { caption, columns, query, paging } = props;
  const isPhone = !useMediaQuery("(min-width: 640px)");
  const rows = query.data?.items;
  const total = query.data?.total;
  const nextCursor = query.data?.nextCursor;
  const first = paging.offset + 1;
  const last = paging.offset + (rows?.length ?? 0);
  const totalText = `${total?.toLocaleString("en-US")}${query.data?.totalCapped ? "+" : ""}`;
  const range = total === undefined ? "" : total === 0 ? "No results" : `${first}–${last} of ${totalText}`;

  return (
    <div className="grid min-w-0 gap-4">
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

      {isPhone ? (
        <DataCards {...props} />
      ) : (
        <SidewaysScroll label={caption}>
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
        </SidewaysScroll>
      )}
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

function DataCards<Row>({ caption, columns, query, rowKey, emptyText }: DataTableProps<Row>) {
  const rows = query.data?.items;
  const title = columns.find((column) => column.card === "title");
  const actions = columns.find((column) => column.card === "actions");
  const lines = columns.filter((column) => !column.card);
  return (
    <div aria-busy={query.isFetching || undefined}>
      <ul aria-label={caption} className="grid gap-3">
        {rows?.map((row) => (
          <li key={rowKey(row)} className="grid min-w-0 gap-3 rounded-xl border bg-card p-4 text-sm">
            {title && <div className="min-w-0">{title.cell(row)}</div>}
            {lines.length > 0 && (
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2">
                {lines.map((column) => (
                  <div key={column.header} className="col-span-2 grid grid-cols-subgrid items-baseline">
                    <dt className="text-xs font-medium text-muted-foreground">{column.header}</dt>
                    <dd className="min-w-0">{column.cell(row)}</dd>
                  </div>
                ))}
              </dl>
            )}
            {actions && <div className="flex flex-wrap justify-end gap-2 border-t pt-3">{actions.cell(row)}</div>}
          </li>
        ))}
      </ul>
      {rows && rows.length === 0 && <p className="rounded-xl border bg-card px-4 py-10 text-center text-sm text-muted-foreground">{emptyText}</p>}
      {query.isPending && !query.isError && (
        <div className="rounded-xl border bg-card px-4 py-10 text-center">
          <Spinner label={`Loading ${caption.toLowerCase()}…`} />
        </div>
      )}
    </div>
  );
}

/**
 * The table's frame. When the table is wider (a tablet, many columns) it scrolls sideways and
 * says so: a fade on the edge that has more, a line of text, and the frame joins the tab order
 * so the keyboard can scroll it.
 */
function SidewaysScroll({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [hasMore, setHasMore] = useState(false);
  const [scrolls, setScrolls] = useState(false);

  useLayoutEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    const measure = () => {
      setScrolls(frame.scrollWidth > frame.clientWidth + 1);
      setHasMore(frame.scrollLeft + frame.clientWidth < frame.scrollWidth - 1);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    if (frame.firstElementChild) observer.observe(frame.firstElementChild);
    frame.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      frame.removeEventListener("scroll", measure);
    };
  }, []);

  return (
    <div className="grid gap-2">
      <div className="relative min-w-0">
        <div
          ref={ref}
          role={scrolls ? "region" : undefined}
          aria-label={scrolls ? `${label}, scrolls sideways` : undefined}
          tabIndex={scrolls ? 0 : undefined}
          className="overflow-x-auto rounded-xl border bg-card"
        >
          {children}
        </div>
        {hasMore && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-px right-px w-12 rounded-r-xl bg-linear-to-l from-card to-transparent"
          />
        )}
      </div>
      {scrolls && <p className="text-xs text-muted-foreground">Scroll sideways to see every column.</p>}
    </div>
  );
}
