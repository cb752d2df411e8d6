import { z } from "zod";
import { idSchema } from "../folders/schemas.ts";

export const APPOINTMENT_STATUSES = ["requested", "scheduled", "completed", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export const PREFERRED_TIMES = ["morning", "afternoon", "evening"] as const;

const isoDate = z.iso.date("Please choose a valid date");

/** A client's request (decisions.md): title, preferred date and time, notes. */
export const requestAppointmentInput = z.object({
  title: z.string({ error: "Please fill in all fields" }).trim().min(1, "Please fill in all fields").max(200, "Title must be at most 200 characters"),
  preferredDate: isoDate,
  preferredTime: z.enum(PREFERRED_TIMES, { error: "Preferred time must be morning, afternoon or evening" }),
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

/** Admin: create an appointment for a client. */
export const createAppointmentInput = z.object({
  user_id: idSchema,
  title: z.string().trim().min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  description: z.string().trim().max(5000, "Description must be at most 5000 characters").default(""),
  appointment_date: z.coerce.date({ error: "Please choose a valid date and time" }),
  status: z.enum(APPOINTMENT_STATUSES).default("scheduled"),
});

/** Admin: reschedule and/or change status. */
export const updateAppointmentInput = z.object({
  id: idSchema,
  appointment_date: z.coerce.date({ error: "Please choose a valid date and time" }).optional(),
  status: z.enum(APPOINTMENT_STATUSES).optional(),
  title: z.string().trim().min(1).max(200).optional(),
  description: z.string().trim().max(5000).optional(),
});
