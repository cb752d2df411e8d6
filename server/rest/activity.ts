// The activity trail over REST: the client's own events, the firm's filtered view, and the firm's
// CSV export. The export streams: it pages through the trail with the same keyset as the views, a
// batch at a time, and writes each batch as it comes, so memory stays flat however many rows match.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RequestHandler } from "express";
import type { z } from "zod";
import { activityPage, type ActivityFilters, CSV_COLUMNS } from "../domains/activity/queries.ts";
import { activityExportRouter } from "../domains/activity/router.ts";
import {
  activityPageOutput,
  activitySettingsOutput,
  adminActivityInput,
  type ActivityEventItem,
  ownActivityInput,
  updateActivitySettingsInput,
} from "../domains/activity/schemas.ts";
import { INVALID_DATA_VALUE_DETAIL, isInvalidDataValue } from "../db/errors.ts";
import type { Db } from "../db/types.ts";
import { createCallerFactory } from "../trpc/init.ts";
import type { AppDeps } from "../trpc/context.ts";
import { csvLine } from "../domains/csv-lines.ts";
import { setFileHeaders } from "./download.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";
import { procedureRoute, type RestRoute } from "./route.ts";

const createExportCaller = createCallerFactory(activityExportRouter);
/** The export's filters: those of /admin/activity without its paging. */
const exportQuery = adminActivityInput.omit({ cursor: true, limit: true });
const EXPORT_BATCH = 1000;

export const activityRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/activity",
    summary: "The caller's own activity trail, newest first; pass next_cursor back as cursor for the next page",
    tag: "activity",
    access: "client",
    query: ownActivityInput,
    response: activityPageOutput,
    call: (c, r) => c.activity.list(r.query),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/activity",
    summary:
      "Every client's activity trail, newest first, narrowed by client, the person who acted (actor_id), action and a date range (from inclusive, to exclusive)",
    tag: "admin",
    access: "admin",
    query: adminActivityInput,
    response: activityPageOutput,
    call: (c, r) => c.admin.activity.list(r.query),
  }),
  {
    method: "get",
    path: "/admin/activity.csv",
    summary: "Every event matching the filters of /admin/activity as CSV (streamed; a cell starting with = + - or @ gets a leading apostrophe)",
    tag: "admin",
    access: "admin",
    query: exportQuery,
    response: { description: "The events as CSV, newest first", contentType: "text/csv" },
    handler: csvExport,
  },
  procedureRoute({
    method: "get",
    path: "/admin/activity-settings",
    summary: "How a client's own activity names the firm's staff: \"Your firm\", or their display name (never a login name)",
    tag: "admin",
    access: "admin",
    response: activitySettingsOutput,
    call: (c) => c.admin.activity.settings(),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/activity-settings",
    summary: "Name the firm's staff in clients' own activity by their display name, or as \"Your firm\"",
    tag: "admin",
    access: "admin",
    body: updateActivitySettingsInput,
    response: activitySettingsOutput,
    call: (c, r) => c.admin.activity.updateSettings(r.body),
  }),
];

function csvExport(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    let filters: ActivityFilters;
    let first: ActivityPageOfRows;
    try {
      // Typed as the row's query says the client sends it; the filters procedure parses it, as it would a REST row's.
      const { client_id, actor_id, action, from, to } = req.query as z.input<typeof exportQuery>;
      filters = await createExportCaller(createRequestContext(deps, req, res)).filters({ client_id, actor_id, action, from, to });
      // The first page is read before the 200 goes out: a query the database refuses (or a
      // database that is away) is then still an answer with a status and a detail, not a cut download.
      first = await activityPage(deps.db, filters, { limit: EXPORT_BATCH });
    } catch (err) {
      // A value the database refused (class 22) is the request's fault, as procedures.ts says it.
      const { status, detail } = isInvalidDataValue(err) ? { status: 422, detail: INVALID_DATA_VALUE_DETAIL } : toHttpError(err, deps.logger);
      if (!res.headersSent) res.status(status).json({ detail });
      return;
    }
    res.status(200);
    setFileHeaders(res, { contentType: "text/csv; charset=utf-8", filename: "activity.csv", presentation: "attachment" });
    try {
      // pipeline waits for a slow reader and stops reading the trail when the client goes away.
      await pipeline(Readable.from(csvBatches(deps.db, filters, first)), res);
    } catch (err) {
      // The 200 is out: a failure can only cut the download, never end it as if complete.
      if (!res.destroyed) deps.logger.warn({ err }, "activity CSV export cut short");
      res.destroy();
    }
  };
}

type ActivityPageOfRows = Awaited<ReturnType<typeof activityPage>>;

/** The header line, then one chunk of lines per keyset page of the trail, starting with the page already read. */
async function* csvBatches(db: Db, filters: ActivityFilters, first: ActivityPageOfRows): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  let page = first;
  for (;;) {
    if (page.items.length > 0) yield page.items.map((item) => csvLine(CSV_COLUMNS.map((column) => cellOf(item, column)))).join("");
    if (page.next_cursor === null) return;
    page = await activityPage(db, filters, { limit: EXPORT_BATCH, cursor: page.next_cursor });
  }
}

function cellOf(item: ActivityEventItem, column: (typeof CSV_COLUMNS)[number]): string {
  const value = item[column];
  if (value === null) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
