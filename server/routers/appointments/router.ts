import { router } from "../../trpc/init.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { requestAppointmentInput } from "./schemas.ts";
import { listOwnAppointments, requestAppointment } from "./service.ts";

export const appointmentsRouter = router({
  list: authedProcedure.query(({ ctx }) => listOwnAppointments(ctx)),
  request: authedProcedure.input(requestAppointmentInput).mutation(({ ctx, input }) => requestAppointment(ctx, input)),
});
