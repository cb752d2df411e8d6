import { router } from "../../trpc/init.ts";
import { authedProcedure, clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { appointmentListInput } from "../admin/schemas.ts";
import { idInput } from "../shared-schemas.ts";
import { meetingTypes } from "../availability/service.ts";
import { appointmentCalendar, availableSlots, bookAppointment, cancelOwnAppointment, rescheduleOwnAppointment } from "./booking.ts";
import {
  appointmentCalendarInput,
  bookAppointmentInput,
  createAppointmentInput,
  requestAppointmentInput,
  rescheduleAppointmentInput,
  slotsInput,
  updateAppointmentInput,
} from "./schemas.ts";
import { appointmentPage, changeAppointment, createAppointmentForClient, listOwnAppointments, requestAppointment } from "./service.ts";

export const appointmentsRouter = router({
  list: clientProcedure.query(({ ctx }) => listOwnAppointments(ctx)),
  request: clientProcedure.input(requestAppointmentInput).mutation(({ ctx, input }) => requestAppointment(ctx, input)),
  meetingTypes: authedProcedure.query(({ ctx }) => meetingTypes(ctx)),
  slots: clientProcedure.input(slotsInput).query(({ ctx, input }) => availableSlots(ctx, input)),
  book: clientProcedure.input(bookAppointmentInput).mutation(({ ctx, input }) => bookAppointment(ctx, input)),
  cancel: clientProcedure.input(idInput).mutation(({ ctx, input }) => cancelOwnAppointment(ctx, input)),
  reschedule: clientProcedure.input(rescheduleAppointmentInput).mutation(({ ctx, input }) => rescheduleOwnAppointment(ctx, input)),
});

/** Every client's appointments, the firm sub-router `admin.appointments`: `admin.appointments.list`, ... */
export const appointmentsFirmRouter = router({
  list: staffProcedure("appointments")
    .input(appointmentListInput)
    .query(({ ctx, input }) => appointmentPage(ctx, input)),
  create: staffProcedure("appointments")
    .input(createAppointmentInput)
    .mutation(({ ctx, input }) => createAppointmentForClient(ctx, input)),
  update: staffProcedure("appointments")
    .input(updateAppointmentInput)
    .mutation(({ ctx, input }) => changeAppointment(ctx, input)),
  /** The week view: appointments starting in [from, to). */
  calendar: staffProcedure("appointments")
    .input(appointmentCalendarInput)
    .query(({ ctx, input }) => appointmentCalendar(ctx, input)),
});
