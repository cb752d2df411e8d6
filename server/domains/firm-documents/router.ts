import { adminProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { folderOutput } from "../folders/schemas.ts";
import { clientDocumentsInput, createClientFolderInput, updateNotificationSettingsInput } from "./schemas.ts";
import { clientDocuments, clientFolders, clientProfile, createClientFolder, notificationSettings, updateNotificationSettings } from "./service.ts";

/** The admin's client page and the firm's email setting; spread into the admin router. Uploads are in admin/transfers.ts. */
export const firmDocumentsAdminProcedures = {
  client: adminProcedure.input(idInput).query(({ ctx, input }) => clientProfile(ctx, input)),
  clientFolders: staffProcedure("documents")
    .input(idInput)
    .query(({ ctx, input }) => clientFolders(ctx, input)),
  createClientFolder: staffProcedure("documents")
    .input(createClientFolderInput)
    .output(folderOutput)
    .mutation(({ ctx, input }) => createClientFolder(ctx, input)),
  clientDocuments: staffProcedure("documents")
    .input(clientDocumentsInput)
    .query(({ ctx, input }) => clientDocuments(ctx, input)),
  notificationSettings: staffProcedure("settings").query(({ ctx }) => notificationSettings(ctx)),
  updateNotificationSettings: staffProcedure("settings")
    .input(updateNotificationSettingsInput)
    .mutation(({ ctx, input }) => updateNotificationSettings(ctx, input)),
};
