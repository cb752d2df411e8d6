import type { Router } from "express";
import type { AppDeps } from "../trpc/context.ts";
import { restCall } from "./handler.ts";

export function consultationRoutes(api: Router, deps: AppDeps): void {
  api.post("/consultation/request", restCall(deps, (c, req) => c.consultation.request(req.body)));
  api.get("/site-content", restCall(deps, (c) => c.site.content()));
}
