// Every REST path under /api, in one table (route.ts): app.ts registers it, and
// /api/openapi.json describes it.
import type { RequestHandler, Router } from "express";
import { sql } from "kysely";
import { z } from "zod";
import { isDatabaseUnavailable, SERVICE_UNAVAILABLE_DETAIL } from "../db/errors.ts";
import type { AppDeps } from "../trpc/context.ts";
import { adminRoutes } from "./admin.ts";
import { appointmentRoutes } from "./appointments.ts";
import { authRoutes } from "./auth.ts";
import { documentRoutes } from "./documents.ts";
import { folderRoutes } from "./folders.ts";
import { googleRoutes } from "./google.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { publicSiteRoutes } from "./public-site.ts";
import { register, type RestRoute } from "./route.ts";

const systemRoutes: RestRoute[] = [
  { method: "get", path: "/health", summary: "Health check (database reachable)", tag: "system", access: "public", response: z.object({ status: z.literal("ok") }), handler: health },
  { method: "get", path: "/openapi.json", summary: "This document", tag: "system", access: "public", response: { description: "OpenAPI 3.1 document" }, handler: openApiDocument },
];

export const REST_ROUTES: readonly RestRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...googleRoutes,
  ...folderRoutes,
  ...documentRoutes,
  ...appointmentRoutes,
  ...publicSiteRoutes,
  ...adminRoutes,
];

export function registerRestRoutes(api: Router, deps: AppDeps): void {
  register(api, deps, REST_ROUTES);
}

function health(deps: AppDeps): RequestHandler {
  return async (_req, res) => {
    try {
      await sql`select 1`.execute(deps.db);
      res.json({ status: "ok" });
    } catch (err) {
      if (!isDatabaseUnavailable(err)) deps.logger.error({ err }, "health check failed");
      res.status(503).json({ status: "unavailable", detail: SERVICE_UNAVAILABLE_DETAIL });
    }
  };
}

function openApiDocument(deps: AppDeps): RequestHandler {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return (_req, res) => {
    document ??= buildOpenApiDocument(REST_ROUTES, deps.config.publicUrl);
    res.json(document);
  };
}
