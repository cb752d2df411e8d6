import { router } from "../../trpc/init.ts";
import { adminProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { recordUploadInput } from "../documents/transfers.ts";
import { idInput, idSchema } from "../shared-schemas.ts";
import { folderOutput } from "../folders/schemas.ts";
import { clientDocumentsInput, createClientFolderInput, updateNotificationSettingsInput } from "./schemas.ts";
import {
  checkClientUploadPlace,
  clientDocuments,
  clientFolders,
  clientProfile,
  createClientFolder,
  notificationSettings,
  prepareClientUpload,
  recordClientUpload,
  updateNotificationSettings,
} from "./service.ts";

/** The firm sub-router `admin.clients`: the admin's client page (/api/admin/users/:id) and the firm's email setting. Uploads are in firmDocumentsTransfersRouter below. */
export const firmDocumentsFirmRouter = router({
  get: adminProcedure.input(idInput).query(({ ctx, input }) => clientProfile(ctx, input)),
  folders: staffProcedure("documents")
    .input(idInput)
    .query(({ ctx, input }) => clientFolders(ctx, input)),
  createFolder: staffProcedure("documents")
    .input(createClientFolderInput)
    .output(folderOutput)
    .mutation(({ ctx, input }) => createClientFolder(ctx, input)),
  documents: staffProcedure("documents")
    .input(clientDocumentsInput)
    .query(({ ctx, input }) => clientDocuments(ctx, input)),
  notificationSettings: staffProcedure("settings").query(({ ctx }) => notificationSettings(ctx)),
  updateNotificationSettings: staffProcedure("settings")
    .input(updateNotificationSettingsInput)
    .mutation(({ ctx, input }) => updateNotificationSettings(ctx, input)),
});

/**
 * The firm's upload into the client `id`'s documents (POST /api/admin/users/:id/documents): bytes,
 * so REST serves it, mounted as `admin.clients` of the transfer router, not served at /trpc (see
 * documents/transfers.ts).
 */
export const firmDocumentsTransfersRouter = router({
  prepareUpload: staffProcedure("documents")
    .input(idInput)
    .mutation(({ ctx, input }) => prepareClientUpload(ctx, input)),
  /** The folder of the firm's upload, checked before the file is stored (the client's own, or their root). */
  checkUploadPlace: staffProcedure("documents")
    .input(recordUploadInput.pick({ folder_id: true }).extend({ id: idSchema }))
    .mutation(({ ctx, input }) => checkClientUploadPlace(ctx, input)),
  recordUpload: staffProcedure("documents")
    .input(recordUploadInput.pick({ folder_id: true, for_signature: true, file: true }).extend({ id: idSchema }))
    .mutation(({ ctx, input }) => recordClientUpload(ctx, input)),
});
