import { router } from "../../trpc/init.ts";
import { notImplemented } from "../../trpc/not-implemented.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { type DocumentItem, documentIdInput, folderDocumentsInput } from "./schemas.ts";

export const documentsRouter = router({
  root: authedProcedure.query(async (): Promise<DocumentItem[]> => notImplemented()),
  inFolder: authedProcedure.input(folderDocumentsInput).query(async (): Promise<DocumentItem[]> => notImplemented()),
  delete: authedProcedure.input(documentIdInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
});
