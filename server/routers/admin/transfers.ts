// The admin's download and preview of any client's document: bytes, so REST serves it, behind the same admin
// procedure as the rest of the admin portal. Not served at /trpc (see documents/transfers.ts).
import { router } from "../../trpc/init.ts";
import { adminProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { getAnyPreviewDocument, getAnyStoredDocument } from "./service.ts";

export const adminTransfersRouter = router({
  download: adminProcedure.input(idInput).query(({ ctx, input }) => getAnyStoredDocument(ctx, input)),
  preview: adminProcedure.input(idInput).query(({ ctx, input }) => getAnyPreviewDocument(ctx, input)),
});
