import type { Router } from "express";
import { documentIdInput } from "../routers/documents/schemas.ts";
import { getOwnStoredDocument } from "../routers/documents/service.ts";
import type { AppDeps } from "../trpc/context.ts";
import { sendStoredDocument } from "./download.ts";
import { restCall } from "./handler.ts";
import { uploadRoute } from "./upload.ts";

export function documentRoutes(api: Router, deps: AppDeps): void {
  api.get("/documents/root", restCall(deps, (c) => c.documents.root()));
  api.get("/documents/usage", restCall(deps, (c) => c.documents.usage()));
  api.get("/documents/folder/:folder_id", restCall(deps, (c, req) => c.documents.inFolder({ folder_id: req.params.folder_id })));
  api.post("/documents/upload", uploadRoute(deps));
  // Bytes, not JSON: no tRPC procedure; the caller is identified by the same authed procedure stack.
  api.get(
    "/documents/:id/download",
    restCall(deps, async (c, req, res) => {
      const user = await c.auth.me();
      const { id } = documentIdInput.parse({ id: req.params.id });
      const document = await getOwnStoredDocument(deps.db, user.id, id);
      await sendStoredDocument(res, deps.storage, deps.logger, document);
    }),
  );
  api.delete("/documents/:id", restCall(deps, (c, req) => c.documents.delete({ id: req.params.id })));
}
