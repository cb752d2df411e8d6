import { router } from "../../trpc/init.ts";
import { notImplemented } from "../../trpc/not-implemented.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { createFolderInput, type Folder, folderIdInput } from "./schemas.ts";

export const foldersRouter = router({
  list: authedProcedure.query(async (): Promise<Folder[]> => notImplemented()),
  create: authedProcedure.input(createFolderInput).mutation(async (): Promise<Folder> => notImplemented()),
  delete: authedProcedure.input(folderIdInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
});
