import { TRPCError } from "@trpc/server";
import type { Request, Response, Router } from "express";
import { findStoredDocument } from "../routers/admin/queries.ts";
import { documentIdInput, type Page } from "../routers/admin/schemas.ts";
import { ADMIN_NOT_DELETABLE } from "../routers/admin/service.ts";
import { DOCUMENT_NOT_FOUND } from "../routers/documents/service.ts";
import type { AppDeps } from "../trpc/context.ts";
import { sendStoredDocument } from "./download.ts";
import { restCall } from "./handler.ts";

/** `?q=&limit=&cursor=` (or `offset`) as the list procedures take them. */
function pageQuery(req: Request) {
  const { q, limit, cursor, offset, user_id } = req.query;
  return { q, limit, cursor: cursor ?? offset, user_id } as Record<string, unknown> as never;
}

/** REST keeps the spec's shape, a JSON array; the total goes in a header (decisions.md). */
async function asArray<T>(res: Response, page: Promise<Page<T>>): Promise<T[]> {
  const { items, total, nextCursor } = await page;
  res.setHeader("X-Total-Count", String(total));
  if (nextCursor !== null) res.setHeader("X-Next-Cursor", String(nextCursor));
  return items;
}

export function adminRoutes(api: Router, deps: AppDeps): void {
  api.post("/admin/login", restCall(deps, (c, req) => c.admin.login(req.body)));
  api.get("/admin/stats", restCall(deps, (c) => c.admin.stats()));
  api.get("/admin/users", restCall(deps, (c, req, res) => asArray(res, c.admin.users(pageQuery(req)))));
  api.delete(
    "/admin/users/:id",
    restCall(deps, async (c, req, res) => {
      try {
        return await c.admin.deleteUser({ id: req.params.id });
      } catch (err) {
        // decisions.md gives this refusal 400, where other BAD_REQUESTs are validation (422).
        if (err instanceof TRPCError && err.message === ADMIN_NOT_DELETABLE) return res.status(400).json({ detail: err.message });
        throw err;
      }
    }),
  );
  api.patch("/admin/users/:id/quota", restCall(deps, (c, req) => c.admin.setUserQuota({ id: req.params.id, quota_mb: req.body?.quota_mb })));
  api.get("/admin/documents", restCall(deps, (c, req, res) => asArray(res, c.admin.documents(pageQuery(req)))));
  api.get(
    "/admin/documents/:id/download",
    restCall(deps, async (c, req, res) => {
      await c.admin.me();
      const { id } = documentIdInput.parse({ id: req.params.id });
      const document = await findStoredDocument(deps.db, id);
      if (!document) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
      await sendStoredDocument(res, deps.storage, deps.logger, document);
    }),
  );
  api.delete("/admin/documents/:id", restCall(deps, (c, req) => c.admin.deleteDocument({ id: req.params.id })));
  api.get("/admin/site-content", restCall(deps, (c) => c.admin.siteContent()));
  api.put(
    "/admin/site-content/:section/:key",
    restCall(deps, (c, req) =>
      c.admin.updateSiteContent({ section: req.params.section, key: req.params.key, value: req.body?.value } as never),
    ),
  );
  api.post("/admin/init-site-content", restCall(deps, (c) => c.admin.initSiteContent()));
  api.put("/admin/testimonials", restCall(deps, (c, req) => c.admin.updateTestimonials(req.body)));
  api.get("/admin/consultations", restCall(deps, (c, req, res) => asArray(res, c.admin.consultations(pageQuery(req)))));
  api.put(
    "/admin/consultations/:id",
    restCall(deps, (c, req) => c.admin.setConsultationHandled({ id: req.params.id, handled: req.body?.handled })),
  );
  api.get("/admin/appointments", restCall(deps, (c, req, res) => asArray(res, c.admin.appointments(pageQuery(req)))));
  api.post("/admin/appointments", restCall(deps, (c, req) => c.admin.createAppointment(req.body), { status: 201 }));
  api.patch(
    "/admin/appointments/:id",
    restCall(deps, (c, req) => c.admin.updateAppointment({ ...req.body, id: req.params.id })),
  );
}
