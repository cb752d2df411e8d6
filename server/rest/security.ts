// Safeguards over REST (docs/safeguards.md): the owner's end of every session, the access log as
// CSV (streamed a batch at a time, as the activity CSV), and an account's complete export as one
// ZIP (streamed as a folder's, folder-archive.ts).
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RequestHandler } from "express";
import type { z } from "zod";
import { activityPage, type ActivityFilters } from "../domains/activity/queries.ts";
import { csvLine } from "../domains/csv-lines.ts";
import { accessLogRouter } from "../domains/security/router.ts";
import { accessLogInput, endAllSessionsInput, endAllSessionsOutput } from "../domains/security/schemas.ts";
import { INVALID_DATA_VALUE_DETAIL, isInvalidDataValue } from "../db/errors.ts";
import type { Db } from "../db/types.ts";
import { createCallerFactory } from "../trpc/init.ts";
import type { AppDeps } from "../trpc/context.ts";
import { setFileHeaders } from "./download.ts";
import { toHttpError } from "./errors.ts";
import { folderArchiveRoute } from "./folder-archive.ts";
import { createRequestContext } from "./handler.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

const createAccessLogCaller = createCallerFactory(accessLogRouter);
const BATCH = 1000;
const zipReply = {
  description: "A ZIP built while it is sent: documents/ in their folders, messages, requests and appointments as JSON and CSV, README.txt",
  contentType: "application/zip",
};

/** The access log's columns, in order. */
const ACCESS_COLUMNS = [
  "occurred_at",
  "action",
  "person",
  "person_role",
  "person_id",
  "account",
  "account_id",
  "target_type",
  "target_id",
  "filename",
  "folder",
  "ip",
  "user_agent",
  "detail",
] as const;

export const securityRoutes: RestRoute[] = [
  procedureRoute({
    method: "post",
    path: "/admin/security/end-all-sessions",
    summary:
      'The owner only: end every session of every user (clients and staff, the owner\'s other sessions too) but the calling one, and any sign-in under way; open message streams end. Needs {"confirm": true}',
    tag: "admin",
    access: "admin",
    body: endAllSessionsInput,
    response: endAllSessionsOutput,
    call: (c, r) => c.admin.security.endAllSessions(bodyOf(r)),
  }),
  {
    method: "get",
    path: "/admin/security/access-log.csv",
    summary:
      "Who accessed what from `from` (inclusive) to `to` (exclusive): sign-ins (and failed ones), sign-outs, document downloads and previews, account exports and access log downloads, by person and account, as CSV, newest first",
    tag: "admin",
    access: "admin",
    query: accessLogInput,
    response: { description: "The access log as CSV", contentType: "text/csv" },
    handler: accessLogCsv,
  },
  {
    method: "get",
    path: "/account/export",
    summary: "Everything of the caller's current account as one ZIP (documents, messages, requests, appointments, README.txt)",
    tag: "account",
    access: "client",
    response: zipReply,
    handler: folderArchiveRoute((transfers) => transfers.accountExport.own()),
  },
  {
    method: "get",
    path: "/admin/accounts/:id/export",
    summary: "Everything of a client account as one ZIP (documents, messages, requests, appointments, README.txt)",
    tag: "admin",
    access: "admin",
    response: zipReply,
    handler: folderArchiveRoute((transfers, params) => transfers.accountExport.forFirm({ id: params.id! })),
  },
];

function accessLogCsv(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    let filters: ActivityFilters;
    let first: Page;
    try {
      const { from, to } = req.query as z.input<typeof accessLogInput>;
      filters = await createAccessLogCaller(createRequestContext(deps, req, res)).filters({ from, to });
      // Read before the 200 goes out, so a refused query is still an answer with a status.
      first = await activityPage(deps.db, filters, { limit: BATCH });
    } catch (err) {
      const { status, detail } = isInvalidDataValue(err) ? { status: 422, detail: INVALID_DATA_VALUE_DETAIL } : toHttpError(err, deps.logger);
      if (!res.headersSent) res.status(status).json({ detail });
      return;
    }
    res.status(200);
    setFileHeaders(res, { contentType: "text/csv; charset=utf-8", filename: "access-log.csv", presentation: "attachment" });
    try {
      await pipeline(Readable.from(lines(deps.db, filters, first)), res);
    } catch (err) {
      if (!res.destroyed) deps.logger.warn({ err }, "access log CSV cut short");
      res.destroy();
    }
  };
}

type Page = Awaited<ReturnType<typeof activityPage>>;

async function* lines(db: Db, filters: ActivityFilters, first: Page): AsyncGenerator<string> {
  yield csvLine(ACCESS_COLUMNS);
  let page = first;
  for (;;) {
    if (page.items.length > 0) yield page.items.map((item) => csvLine(row(item))).join("");
    if (page.next_cursor === null) return;
    page = await activityPage(db, filters, { limit: BATCH, cursor: page.next_cursor });
  }
}

function row(item: Page["items"][number]): string[] {
  const text = (key: string) => {
    const value = item.detail[key];
    return typeof value === "string" ? value : "";
  };
  return [
    item.occurred_at.toISOString(),
    item.action,
    item.actor_label,
    item.actor_role,
    item.actor_id ?? "",
    item.client_label ?? "",
    item.client_id ?? "",
    item.target_type ?? "",
    item.target_id ?? "",
    text("filename"),
    text("folder"),
    item.ip ?? "",
    item.user_agent ?? "",
    JSON.stringify(item.detail),
  ];
}
