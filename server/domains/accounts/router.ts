import { router } from "../../trpc/init.ts";
import { authedProcedure, clientProcedure } from "../../trpc/procedures.ts";
import { switchAccountInput } from "./schemas.ts";
import { listMyAccounts, switchAccount } from "./service.ts";

// authedProcedure, not clientProcedure: a person who reaches no account still lists (none) here.
export const accountsRouter = router({
  list: authedProcedure.query(({ ctx }) => listMyAccounts(ctx)),
  switch: authedProcedure.input(switchAccountInput).mutation(({ ctx, input }) => switchAccount(ctx, input)),
  /** The session's current account (what the client's message stream follows). */
  current: clientProcedure.query(({ ctx }) => ctx.account),
});
