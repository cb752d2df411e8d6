import type { Router } from "express";
import type { AppDeps } from "../trpc/context.ts";
import { restCall } from "./handler.ts";

export function folderRoutes(api: Router, deps: AppDeps): void {
  api.get("/folders", restCall(deps, (c) => c.folders.list()));
  api.post("/folders", restCall(deps, (c, req) => c.folders.create(req.body), { status: 201 }));
  api.delete("/folders/:id", restCall(deps, (c, req) => c.folders.delete({ id: req.params.id })));
}
