import { z } from "zod";
import {
  bookAppointmentInput,
  clientAppointmentOutput,
  requestAppointmentInput,
  rescheduleAppointmentInput,
  slotOutput,
  slotsInput,
} from "../domains/appointments/schemas.ts";
import { meetingTypeOutput } from "../domains/availability/schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

export const appointmentRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/appointments",
    summary: "The caller's appointments, upcoming first",
    tag: "appointments",
    access: "client",
    response: z.array(clientAppointmentOutput),
    call: (c) => c.appointments.list(),
  }),
  procedureRoute({
    method: "post",
    path: "/appointments",
    summary: "Request an appointment",
    tag: "appointments",
    access: "client",
    body: requestAppointmentInput,
    response: clientAppointmentOutput,
    status: 201,
    call: (c, r) => c.appointments.request(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/appointments/meeting-types",
    summary: "The meeting types a client can book",
    tag: "appointments",
    access: "client",
    response: z.array(meetingTypeOutput),
    call: (c) => c.appointments.meetingTypes(),
  }),
  procedureRoute({
    method: "get",
    path: "/appointments/slots",
    summary: "Free times for a meeting type (`type`) or for moving one of the caller's appointments (`appointment`), with the firm's offset",
    tag: "appointments",
    access: "client",
    query: slotsInput,
    response: z.array(slotOutput),
    call: (c, r) => {
      const { type, appointment, from, to } = r.query;
      return c.appointments.slots({ type, appointment, from, to });
    },
  }),
  procedureRoute({
    method: "post",
    path: "/appointments/book",
    summary: "Book a free time of a meeting type (409 when it was just taken)",
    tag: "appointments",
    access: "client",
    body: bookAppointmentInput,
    response: clientAppointmentOutput,
    status: 201,
    call: (c, r) => c.appointments.book(r.body),
  }),
  procedureRoute({
    method: "post",
    path: "/appointments/:id/cancel",
    summary: "Cancel one of the caller's appointments, up to the notice period before it (409 after)",
    tag: "appointments",
    access: "client",
    response: clientAppointmentOutput,
    call: (c, r) => c.appointments.cancel({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/appointments/:id/reschedule",
    summary: "Move one of the caller's bookings to another free time, up to the notice period before it (409 after)",
    tag: "appointments",
    access: "client",
    body: rescheduleAppointmentInput.omit({ id: true }),
    response: clientAppointmentOutput,
    call: (c, r) => c.appointments.reschedule({ ...bodyOf(r), id: r.params.id }),
  }),
];
