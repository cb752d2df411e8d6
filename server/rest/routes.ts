// Every REST path under /api, in one table (route.ts): app.ts registers it, and
// /api/openapi.json describes it.
import type { RequestHandler, Router } from "express";
import { sql } from "kysely";
import { z } from "zod";
import { isDatabaseUnavailable, SERVICE_UNAVAILABLE_DETAIL } from "../db/errors.ts";
import type { AppDeps } from "../trpc/context.ts";
import { accountRoutes } from "./accounts.ts";
import { accountContactRoutes } from "./account-contacts.ts";
import { activityRoutes } from "./activity.ts";
import { adminAccountRoutes } from "./admin-accounts.ts";
import { adminRoutes } from "./admin.ts";
import { appointmentRoutes } from "./appointments.ts";
import { availabilityRoutes } from "./availability.ts";
import { authRoutes } from "./auth.ts";
import { documentRoutes } from "./documents.ts";
import { firmDocumentRoutes } from "./firm-documents.ts";
import { firmSetupRoutes } from "./firm-setup.ts";
import { folderRoutes } from "./folders.ts";
import { googleRoutes } from "./google.ts";
import { inboxRoutes } from "./inbox.ts";
import { invitationRoutes } from "./invitations.ts";
import { messageRoutes } from "./messages.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { publicSiteRoutes } from "./public-site.ts";
import { organizerRoutes } from "./organizers.ts";
import { requestRoutes } from "./requests.ts";
import { retentionRoutes } from "./retention.ts";
import { securityRoutes } from "./security.ts";
import { siteMediaRoutes } from "./site-media.ts";
import { staffRoutes } from "./staff.ts";
import { assignmentRoutes } from "./assignments.ts";
import { accountNoteRoutes } from "./account-notes.ts";
import { register, type RestRoute } from "./route.ts";
import { signatureRoutes } from "./signatures.ts";

const systemRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/health",
    summary: "Health check (database reachable)",
    tag: "system",
    access: "public",
    response: z.object({ status: z.literal("ok") }),
    handler: health,
  },
  {
    method: "get",
    path: "/ready",
    summary: "Readiness check: 200 only while the database and the document storage answer (for a load balancer)",
    tag: "system",
    access: "public",
    response: z.object({ status: z.literal("ready") }),
    handler: ready,
  },
  {
    method: "get",
    path: "/openapi.json",
    summary: "This document",
    tag: "system",
    access: "public",
    response: { description: "OpenAPI 3.1 document" },
    handler: openApiDocument,
  },
];

export const REST_ROUTES: readonly RestRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...googleRoutes,
  ...accountRoutes,
  ...accountContactRoutes,
  ...folderRoutes,
  ...documentRoutes,
  ...appointmentRoutes,
  ...publicSiteRoutes,
  ...adminRoutes,
  ...availabilityRoutes,
  ...activityRoutes,
  ...inboxRoutes,
  ...firmDocumentRoutes,
  ...invitationRoutes,
  ...requestRoutes,
  ...organizerRoutes,
  ...messageRoutes,
  ...securityRoutes,
  ...firmSetupRoutes,
  ...siteMediaRoutes,
  ...staffRoutes,
  ...adminAccountRoutes,
  ...assignmentRoutes,
  ...accountNoteRoutes,
  ...signatureRoutes,
  ...retentionRoutes,
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

/**
 * Unlike /health (is the process alive), this asks whether this instance can serve requests now, so
 * a load balancer sends traffic elsewhere while its database or storage does not answer.
 */
function ready(deps: AppDeps): RequestHandler {
  return async (_req, res) => {
    const problems = await Promise.all([
      sql`select 1`.execute(deps.db).then(
        () => null,
        (err: unknown) => {
          if (!isDatabaseUnavailable(err)) deps.logger.warn({ err }, "readiness: the database did not answer");
          return "the database";
        },
      ),
      deps.storage.check().then(
        () => null,
        (err: unknown) => {
          deps.logger.warn({ err }, "readiness: the document storage did not answer");
          return "the document storage";
        },
      ),
    ]);
    const down = problems.filter((p) => p !== null);
    if (down.length === 0) res.json({ status: "ready" });
    else res.status(503).json({ detail: `Not ready: ${down.join(" and ")} did not answer.` });
  };
}

function openApiDocument(deps: AppDeps): RequestHandler {
  // Built and serialized once: the document is a few hundred KB that never changes while the
  // process runs, and serializing it took ~30 ms a request.
  let text: string | undefined;
  return (_req, res) => {
    text ??= JSON.stringify(buildOpenApiDocument(REST_ROUTES, deps.config.publicUrl));
    res.type("application/json").send(text);
  };
}
