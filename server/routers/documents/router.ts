import { router } from "../../trpc/init.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { listDocuments } from "./queries.ts";
import { documentIdInput, folderDocumentsInput } from "./schemas.ts";
import { listFolderDocuments, removeDocument, storageUsage } from "./service.ts";

// Uploads and downloads are REST only (server/rest/upload.ts, download.ts): they stream bytes.
export const documentsRouter = router({
  root: authedProcedure.query(({ ctx }) => listDocuments(ctx.db, ctx.user.id, null)),
  inFolder: authedProcedure
    .input(folderDocumentsInput)
    .query(({ ctx, input }) => listFolderDocuments(ctx.db, ctx.user.id, input.folder_id)),
  delete: authedProcedure.input(documentIdInput).mutation(({ ctx, input }) => removeDocument(ctx, ctx.user.id, input.id)),
  /** How much of their quota the caller uses: always their own, no input names a user. */
  usage: authedProcedure.query(({ ctx }) => storageUsage(ctx.db, ctx.config, ctx.user.id)),
});
