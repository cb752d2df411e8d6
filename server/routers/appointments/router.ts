import { router } from "../../trpc/init.ts";
import { notImplemented } from "../../trpc/not-implemented.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { type Appointment, requestAppointmentInput } from "./schemas.ts";

export const appointmentsRouter = router({
  list: authedProcedure.query(async (): Promise<Appointment[]> => notImplemented()),
  request: authedProcedure.input(requestAppointmentInput).mutation(async (): Promise<Appointment> => notImplemented()),
});
