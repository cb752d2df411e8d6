import { router } from "../../trpc/init.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { listFolders } from "./queries.ts";
import { createFolderInput, folderIdInput } from "./schemas.ts";
import { createFolder, removeFolder } from "./service.ts";

export const foldersRouter = router({
  list: authedProcedure.query(({ ctx }) => listFolders(ctx.db, ctx.user.id)),
  create: authedProcedure.input(createFolderInput).mutation(({ ctx, input }) => createFolder(ctx.db, ctx.user.id, input)),
  delete: authedProcedure.input(folderIdInput).mutation(({ ctx, input }) => removeFolder(ctx.db, ctx.user.id, input.id)),
});
