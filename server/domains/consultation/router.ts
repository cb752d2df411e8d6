import { router } from "../../trpc/init.ts";
import { publicProcedure } from "../../trpc/procedures.ts";
import { consultationRequestInput } from "./schemas.ts";
import { requestConsultation } from "./service.ts";

export const consultationRouter = router({
  request: publicProcedure.input(consultationRequestInput).mutation(({ ctx, input }) => requestConsultation(ctx, input)),
});
