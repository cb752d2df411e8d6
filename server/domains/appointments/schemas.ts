import { z } from "zod";
import { MEETING_LOCATIONS } from "../availability/schemas.ts";
import { idSchema, nameText, preferredTimeSchema } from "../shared-schemas.ts";

export const APPOINTMENT_STATUSES = ["requested", "scheduled", "completed", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

const isoDate = z.iso.date("Please choose a valid date");

/** A client's request (docs/decisions.md, Appointments): title, preferred date and time, notes. */
export const requestAppointmentInput = z.object({
  title: nameText("Please fill in all fields").min(1, "Please fill in all fields").max(200, "Title must be at most 200 characters"),
  preferredDate: isoDate,
  preferredTime: preferredTimeSchema,
  notes: z.string().trim().max(5000, "Notes must be at most 5000 characters").default(""),
});

export const appointmentOutput = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  appointment_date: z.date(),
  status: z.enum(APPOINTMENT_STATUSES),
  /** Set for an appointment a client booked (self-booking); null for requests and the firm's own entries. */
  meeting_type_id: z.string().nullable(),
  /** When a booked meeting ends. */
  ends_at: z.date().nullable(),
  location: z.enum(MEETING_LOCATIONS).nullable(),
  location_detail: z.string().nullable(),
});
export type Appointment = z.infer<typeof appointmentOutput>;

/** The client's view: also until when they may cancel or move it themselves (null: not any more, or never). */
export const clientAppointmentOutput = appointmentOutput.extend({ changeable_until: z.date().nullable() });
export type ClientAppointment = z.infer<typeof clientAppointmentOutput>;

const INVALID_DATE_TIME = "Please choose a valid date and time";
const FIRST_YEAR = 2000;
const LAST_YEAR = 2100;

/**
 * A Date (tRPC, superjson) or an ISO 8601 date-time with its offset (REST JSON). Strict on
 * purpose: coercion turned null into 1970-01-01 and let through years Postgres cannot store.
 */
const appointmentDateTime = z
  .union([z.date(), z.iso.datetime({ offset: true }).transform((text) => new Date(text))], { error: INVALID_DATE_TIME })
  .refine((date) => date.getUTCFullYear() >= FIRST_YEAR && date.getUTCFullYear() <= LAST_YEAR, {
    error: `The date must be between the years ${FIRST_YEAR} and ${LAST_YEAR}`,
  });

/** Admin: create an appointment for a client account (`account_id`, or a person resolved to theirs: `user_id`). */
export const createAppointmentInput = z.object({
  user_id: idSchema.optional(),
  account_id: idSchema.optional(),
  title: nameText("Title is required").min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  description: z.string().trim().max(5000, "Description must be at most 5000 characters").default(""),
  appointment_date: appointmentDateTime,
  status: z.enum(APPOINTMENT_STATUSES).default("scheduled"),
});

/** Admin: reschedule and/or change status. */
export const updateAppointmentInput = z.object({
  id: idSchema,
  appointment_date: appointmentDateTime.optional(),
  status: z.enum(APPOINTMENT_STATUSES).optional(),
  title: nameText("Title must be text").min(1).max(200).optional(),
  description: z.string().trim().max(5000).optional(),
});

/** A slot bound: an instant (Date, or ISO 8601 with offset), or a date on the firm's calendar. */
const slotBound = z.union([z.date(), z.iso.datetime({ offset: true }), z.iso.date()], {
  error: "from and to are dates (YYYY-MM-DD) or date-times with an offset",
});

/**
 * GET /api/appointments/slots: the free times for a meeting type (`type`), or for moving one of the
 * caller's appointments (`appointment`, whose own time does not count as taken). `from` (inclusive)
 * and `to` (exclusive for a date-time, inclusive for a date) narrow the bookable period.
 */
export const slotsInput = z
  .object({
    type: idSchema.optional(),
    appointment: idSchema.optional(),
    from: slotBound.optional(),
    to: slotBound.optional(),
  })
  .refine((input) => (input.type === undefined) !== (input.appointment === undefined), {
    error: "Say which meeting type (type) or which of your appointments to move (appointment)",
  });
export type SlotsInput = z.infer<typeof slotsInput>;

/** A free time: the meeting's start and end, ISO 8601 with the firm's offset ("2026-03-09T09:00:00-05:00"). */
export const slotOutput = z.object({ start: z.iso.datetime({ offset: true }), end: z.iso.datetime({ offset: true }) });
export type Slot = z.infer<typeof slotOutput>;

export const bookAppointmentInput = z.object({
  type: idSchema,
  start: appointmentDateTime,
  notes: z.string({ error: "Notes must be text" }).trim().max(2000, "Notes must be at most 2000 characters").default(""),
  /**
   * The number the firm calls, kept in the appointment's description. The booking dialog always
   * sends it for a meeting by phone, and an empty one is refused (PHONE_NEEDED); a caller that
   * leaves the field out books as the specification's path always did (the firm calls the number
   * it has).
   */
  phone: z
    .string({ error: "The phone number must be text" })
    .trim()
    .max(40, "The phone number must be at most 40 characters")
    .refine((phone) => phone === "" || /^[0-9+().\- x]*[0-9][0-9+().\- x]*$/i.test(phone), "Enter a phone number, such as (555) 123-4567")
    .optional(),
});
/** A meeting by phone needs the number the firm calls. */
export const PHONE_NEEDED = "Enter the phone number we should call";
export type BookAppointmentInput = z.infer<typeof bookAppointmentInput>;

export const rescheduleAppointmentInput = z.object({ id: idSchema, start: appointmentDateTime });
export type RescheduleAppointmentInput = z.infer<typeof rescheduleAppointmentInput>;

const CALENDAR_MAX_DAYS = 42;

/** Admin: the appointments of a stretch of time (the week view), at most six weeks. */
export const appointmentCalendarInput = z
  .object({ from: appointmentDateTime, to: appointmentDateTime })
  .refine((range) => range.to > range.from, { error: "to must be after from" })
  .refine((range) => range.to.getTime() - range.from.getTime() <= CALENDAR_MAX_DAYS * 24 * 60 * 60 * 1000, {
    error: `Ask for at most ${CALENDAR_MAX_DAYS} days at a time`,
  });
