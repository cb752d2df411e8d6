import { router } from "../../trpc/init.ts";
import { notImplemented } from "../../trpc/not-implemented.ts";
import { publicProcedure } from "../../trpc/procedures.ts";
import { consultationRequestInput } from "./schemas.ts";

export const consultationRouter = router({
  request: publicProcedure.input(consultationRequestInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
});
