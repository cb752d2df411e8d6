import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { listPageInput } from "../admin/schemas.ts";
import { idInput } from "../shared-schemas.ts";
import { documentSearchInput, firmTrashOutput, folderDocumentsInput, updateDocumentInput } from "./schemas.ts";
import { documentPage, listFolderDocuments, listRootDocuments, searchOwnDocuments, updateDocument } from "./service.ts";
import {
  deleteAnyDocument,
  deleteOwnDocumentForever,
  listOwnTrash,
  removeDocument,
  restoreAnyDocument,
  restoreOwnDocument,
  trashPage,
} from "./trash.ts";
import { storageUsage } from "./upload.ts";

// Uploads, downloads, previews and ZIPs stream bytes: REST only, through transfers.ts.
export const documentsRouter = router({
  root: clientProcedure.query(({ ctx }) => listRootDocuments(ctx)),
  inFolder: clientProcedure.input(folderDocumentsInput).query(({ ctx, input }) => listFolderDocuments(ctx, input)),
  search: clientProcedure.input(documentSearchInput).query(({ ctx, input }) => searchOwnDocuments(ctx, input)),
  update: clientProcedure.input(updateDocumentInput).mutation(({ ctx, input }) => updateDocument(ctx, input)),
  /** Moves the document to the trash (deleted for good 30 days later). */
  delete: clientProcedure.input(idInput).mutation(({ ctx, input }) => removeDocument(ctx, input)),
  trash: clientProcedure.query(({ ctx }) => listOwnTrash(ctx)),
  restore: clientProcedure.input(idInput).mutation(({ ctx, input }) => restoreOwnDocument(ctx, input)),
  deleteForever: clientProcedure.input(idInput).mutation(({ ctx, input }) => deleteOwnDocumentForever(ctx, input)),
  usage: clientProcedure.query(({ ctx }) => storageUsage(ctx)),
});

/** Every client's documents and trash, the firm sub-router `admin.documents`: `admin.documents.list`, `admin.documents.trash`, ... */
export const documentsFirmRouter = router({
  list: staffProcedure("documents")
    .input(listPageInput)
    .query(({ ctx, input }) => documentPage(ctx, input)),
  /** Moves the document to its owner's trash (and says whether a legal hold keeps it there). */
  delete: staffProcedure("documents")
    .input(idInput)
    .output(firmTrashOutput)
    .mutation(({ ctx, input }) => deleteAnyDocument(ctx, input)),
  trash: staffProcedure("documents")
    .input(listPageInput)
    .query(({ ctx, input }) => trashPage(ctx, input)),
  restore: staffProcedure("documents")
    .input(idInput)
    .mutation(({ ctx, input }) => restoreAnyDocument(ctx, input)),
});
