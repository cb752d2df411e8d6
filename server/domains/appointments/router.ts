import { router } from "../../trpc/init.ts";
import { authedProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { meetingTypes } from "../availability/service.ts";
import { availableSlots, bookAppointment, cancelOwnAppointment, rescheduleOwnAppointment } from "./booking.ts";
import { bookAppointmentInput, requestAppointmentInput, rescheduleAppointmentInput, slotsInput } from "./schemas.ts";
import { listOwnAppointments, requestAppointment } from "./service.ts";

export const appointmentsRouter = router({
  list: authedProcedure.query(({ ctx }) => listOwnAppointments(ctx)),
  request: authedProcedure.input(requestAppointmentInput).mutation(({ ctx, input }) => requestAppointment(ctx, input)),
  meetingTypes: authedProcedure.query(({ ctx }) => meetingTypes(ctx)),
  slots: authedProcedure.input(slotsInput).query(({ ctx, input }) => availableSlots(ctx, input)),
  book: authedProcedure.input(bookAppointmentInput).mutation(({ ctx, input }) => bookAppointment(ctx, input)),
  cancel: authedProcedure.input(idInput).mutation(({ ctx, input }) => cancelOwnAppointment(ctx, input)),
  reschedule: authedProcedure.input(rescheduleAppointmentInput).mutation(({ ctx, input }) => rescheduleOwnAppointment(ctx, input)),
});
