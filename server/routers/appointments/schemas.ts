import { z } from "zod";
import { idSchema, preferredTimeSchema } from "../shared-schemas.ts";

export const APPOINTMENT_STATUSES = ["requested", "scheduled", "completed", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

const isoDate = z.iso.date("Please choose a valid date");

/** A client's request (docs/decisions.md, Appointments): title, preferred date and time, notes. */
export const requestAppointmentInput = z.object({
  title: z.string({ error: "Please fill in all fields" }).trim().min(1, "Please fill in all fields").max(200, "Title must be at most 200 characters"),
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
});
export type Appointment = z.infer<typeof appointmentOutput>;

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

/** Admin: create an appointment for a client. */
export const createAppointmentInput = z.object({
  user_id: idSchema,
  title: z.string().trim().min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  description: z.string().trim().max(5000, "Description must be at most 5000 characters").default(""),
  appointment_date: appointmentDateTime,
  status: z.enum(APPOINTMENT_STATUSES).default("scheduled"),
});

/** Admin: reschedule and/or change status. */
export const updateAppointmentInput = z.object({
  id: idSchema,
  appointment_date: appointmentDateTime.optional(),
  status: z.enum(APPOINTMENT_STATUSES).optional(),
  title: z.string().trim().min(1).max(200).optional(),
  description: z.string().trim().max(5000).optional(),
});
