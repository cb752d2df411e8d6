import { router } from "../../trpc/init.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { createFolderInput, updateFolderInput } from "./schemas.ts";
import { createFolder, listOwnFolders, removeFolder, updateFolder } from "./service.ts";

export const foldersRouter = router({
  list: authedProcedure.query(({ ctx }) => listOwnFolders(ctx)),
  create: authedProcedure.input(createFolderInput).mutation(({ ctx, input }) => createFolder(ctx, input)),
  update: authedProcedure.input(updateFolderInput).mutation(({ ctx, input }) => updateFolder(ctx, input)),
  delete: authedProcedure.input(idInput).mutation(({ ctx, input }) => removeFolder(ctx, input)),
});
