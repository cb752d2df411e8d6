import type { Router } from "express";
import type { AppDeps } from "../trpc/context.ts";
import { restCall } from "./handler.ts";

export function documentRoutes(api: Router, deps: AppDeps): void {
  api.get("/documents/root", restCall(deps, (c) => c.documents.root()));
  api.get("/documents/folder/:folder_id", restCall(deps, (c, req) => c.documents.inFolder({ folder_id: req.params.folder_id })));
  api.delete("/documents/:id", restCall(deps, (c, req) => c.documents.delete({ id: req.params.id })));
}
