import { z } from "zod";
import { adminAppointmentOutput } from "../domains/admin/schemas.ts";
import { appointmentCalendarInput } from "../domains/appointments/schemas.ts";
import {
  availabilityInput,
  availabilityOutput,
  createMeetingTypeInput,
  meetingTypeOutput,
  updateMeetingTypeInput,
} from "../domains/availability/schemas.ts";
import { successOutput } from "../domains/shared-schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

/** The admin's side of self-booking: the firm's availability, its meeting types and the week view. */
export const availabilityRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/availability",
    summary: "The firm's weekly hours, days off, minimum notice and booking horizon",
    tag: "admin",
    access: "admin",
    response: availabilityOutput,
    call: (c) => c.admin.availability.get(),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/availability",
    summary: "Replace the firm's availability (weekdays 1-7, Monday = 1; times HH:MM on the firm's clock)",
    tag: "admin",
    access: "admin",
    body: availabilityInput,
    response: availabilityOutput,
    call: (c, r) => c.admin.availability.set(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/meeting-types",
    summary: "The meeting types clients can book",
    tag: "admin",
    access: "admin",
    response: z.array(meetingTypeOutput),
    call: (c) => c.admin.availability.meetingTypes(),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/meeting-types",
    summary: "Add a meeting type",
    tag: "admin",
    access: "admin",
    body: createMeetingTypeInput,
    response: meetingTypeOutput,
    status: 201,
    call: (c, r) => c.admin.availability.createMeetingType(r.body),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/meeting-types/:id",
    summary: "Change a meeting type (bookings already made keep their length)",
    tag: "admin",
    access: "admin",
    body: updateMeetingTypeInput.omit({ id: true }),
    response: meetingTypeOutput,
    call: (c, r) => c.admin.availability.updateMeetingType({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "delete",
    path: "/admin/meeting-types/:id",
    summary: "Stop offering a meeting type (appointments booked with it keep it)",
    tag: "admin",
    access: "admin",
    response: successOutput,
    call: (c, r) => c.admin.availability.deleteMeetingType({ id: r.params.id }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/calendar",
    summary: "Appointments starting in [from, to) (at most 42 days), cancelled ones left out: the week view",
    tag: "admin",
    access: "admin",
    query: appointmentCalendarInput,
    response: z.array(adminAppointmentOutput),
    call: (c, r) => c.admin.appointments.calendar({ from: r.query.from, to: r.query.to }),
  }),
];
