import { router } from "../../trpc/init.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { folderDocumentsInput } from "./schemas.ts";
import { listFolderDocuments, listRootDocuments, removeDocument, storageUsage } from "./service.ts";

// Uploads and downloads stream bytes: REST only, through transfers.ts.
export const documentsRouter = router({
  root: authedProcedure.query(({ ctx }) => listRootDocuments(ctx)),
  inFolder: authedProcedure.input(folderDocumentsInput).query(({ ctx, input }) => listFolderDocuments(ctx, input)),
  delete: authedProcedure.input(idInput).mutation(({ ctx, input }) => removeDocument(ctx, input)),
  usage: authedProcedure.query(({ ctx }) => storageUsage(ctx)),
});
