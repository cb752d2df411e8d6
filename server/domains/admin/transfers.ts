// The admin's download and preview of any client's document, and uploads into a client's documents:
// bytes, so REST serves them, behind the same admin procedure as the rest of the admin portal. Not
// served at /trpc (see documents/transfers.ts).
import { router } from "../../trpc/init.ts";
import { staffProcedure } from "../../trpc/procedures.ts";
import { recordUploadInput } from "../documents/transfers.ts";
import { checkClientUploadPlace, prepareClientUpload, recordClientUpload } from "../firm-documents/service.ts";
import { idInput, idSchema } from "../shared-schemas.ts";
import { getAnyPreviewDocument, getAnyStoredDocument } from "./service.ts";

export const adminTransfersRouter = router({
  download: staffProcedure("documents")
    .input(idInput)
    .query(({ ctx, input }) => getAnyStoredDocument(ctx, input)),
  preview: staffProcedure("documents")
    .input(idInput)
    .query(({ ctx, input }) => getAnyPreviewDocument(ctx, input)),
  /** The firm's upload into the client `id`'s documents (POST /api/admin/users/:id/documents). */
  prepareClientUpload: staffProcedure("documents")
    .input(idInput)
    .mutation(({ ctx, input }) => prepareClientUpload(ctx, input)),
  /** The folder of the firm's upload, checked before the file is stored (the client's own, or their root). */
  checkClientUploadPlace: staffProcedure("documents")
    .input(recordUploadInput.pick({ folder_id: true }).extend({ id: idSchema }))
    .mutation(({ ctx, input }) => checkClientUploadPlace(ctx, input)),
  recordClientUpload: staffProcedure("documents")
    .input(recordUploadInput.pick({ folder_id: true, for_signature: true, file: true }).extend({ id: idSchema }))
    .mutation(({ ctx, input }) => recordClientUpload(ctx, input)),
});
