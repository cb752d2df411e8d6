import { router } from "../../trpc/init.ts";
import { clientProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { createFolderInput, updateFolderInput } from "./schemas.ts";
import { createFolder, listOwnFolders, removeFolder, updateFolder } from "./service.ts";

export const foldersRouter = router({
  list: clientProcedure.query(({ ctx }) => listOwnFolders(ctx)),
  create: clientProcedure.input(createFolderInput).mutation(({ ctx, input }) => createFolder(ctx, input)),
  update: clientProcedure.input(updateFolderInput).mutation(({ ctx, input }) => updateFolder(ctx, input)),
  delete: clientProcedure.input(idInput).mutation(({ ctx, input }) => removeFolder(ctx, input)),
});
