// Uploads, downloads, previews and ZIPs move bytes, which REST serves (server/rest/upload.ts,
// download.ts, folder-archive.ts); who may move what is decided here, by the same authed procedure
// stack as every other call. Only the REST layer calls these (createTransferCaller in _app.ts):
// they are not served at /trpc.
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { idInput, idSchema } from "../shared-schemas.ts";
import { planArchive } from "./archive.ts";
import { zipPlanInput } from "./schemas.ts";
import { getOwnPreviewDocument, getOwnStoredDocument, openStoredDocumentForFirm } from "./service.ts";
import { checkUploadPlace, createDocument, prepareUpload } from "./upload.ts";

/** A client's upload is shared with the account as it arrives; only the firm holds one back for a signature request. */
const FOR_SIGNATURE_IS_THE_FIRMS = "for_signature is for the firm's uploads: yours are shared with your account as they arrive";

/** What the upload route hands over once the content is stored (see ReceivedFile). */
export const recordUploadInput = z.object({
  folder_id: idSchema.nullable(),
  request_id: idSchema.nullable().default(null),
  request_item_id: idSchema.nullable().default(null),
  organizer_id: idSchema.nullable().default(null),
  question_id: z.string().max(64).nullable().default(null),
  for_signature: z.boolean().default(false),
  file: z.object({
    key: z.string(),
    size: z.number().int().min(0),
    sha256: z.string(),
    filename: z.string(),
    declaredType: z.string(),
  }),
});

/** Where an upload goes, known from the fields sent before its file. */
const uploadPlaceInput = recordUploadInput.pick({ folder_id: true, request_id: true, request_item_id: true, organizer_id: true, question_id: true });

export const documentTransfersRouter = router({
  prepareUpload: clientProcedure.mutation(({ ctx }) => prepareUpload(ctx)),
  checkUploadPlace: clientProcedure.input(uploadPlaceInput).mutation(({ ctx, input }) => checkUploadPlace(ctx, input)),
  recordUpload: clientProcedure.input(recordUploadInput).mutation(({ ctx, input }) => {
    if (input.for_signature) throw new TRPCError({ code: "BAD_REQUEST", message: FOR_SIGNATURE_IS_THE_FIRMS });
    return createDocument(ctx, input);
  }),
  download: clientProcedure.input(idInput).query(({ ctx, input }) => getOwnStoredDocument(ctx, input)),
  preview: clientProcedure.input(idInput).query(({ ctx, input }) => getOwnPreviewDocument(ctx, input)),
  /** The entries of a ZIP of one of the caller's folders (null: everything), streamed by rest/folder-archive.ts. */
  zipPlan: clientProcedure.input(zipPlanInput).query(({ ctx, input }) => planArchive(ctx, input)),
});

/**
 * The firm's download and preview of any client's live document it reaches (GET
 * /api/admin/documents/:id/download and /preview), mounted as `admin.documents` of the transfer
 * router: the byte half of the firm's `admin.documents`, under the same right.
 */
export const documentFirmTransfersRouter = router({
  download: staffProcedure("documents")
    .input(idInput)
    .query(({ ctx, input }) => openStoredDocumentForFirm(ctx, input.id, "download")),
  /** The types a browser shows safely. */
  preview: staffProcedure("documents")
    .input(idInput)
    .query(({ ctx, input }) => openStoredDocumentForFirm(ctx, input.id, "preview")),
});
