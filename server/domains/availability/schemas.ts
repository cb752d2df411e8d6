// The firm's availability for self-booking (docs/decisions.md, Self-booking): weekly hours on the
// firm's clock, days off, minimum notice, how far ahead, and the meeting types clients choose from.
// Importable by the web client (zod only).
import { z } from "zod";
import { idSchema, nameText } from "../shared-schemas.ts";

export const WEEKDAYS = [
  { value: 1, label: "Monday" },
  { value: 2, label: "Tuesday" },
  { value: 3, label: "Wednesday" },
  { value: 4, label: "Thursday" },
  { value: 5, label: "Friday" },
  { value: 6, label: "Saturday" },
  { value: 7, label: "Sunday" },
] as const;

const DEFAULT_MIN_NOTICE_HOURS = 24;
const DEFAULT_HORIZON_DAYS = 60;
export const MAX_MIN_NOTICE_HOURS = 720;
export const MAX_HORIZON_DAYS = 365;
/** One client's upcoming self-booked appointments: 3 unless the firm says otherwise (migration 2026-11-26T0010). */
const DEFAULT_MAX_UPCOMING_BOOKINGS = 3;
export const MAX_UPCOMING_BOOKINGS_LIMIT = 50;

const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** "09:30" as 570 minutes after midnight. */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** 570 as "09:30". */
export function timeOfDay(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

const timeOfDaySchema = z
  .string({ error: "Times are written HH:MM, from 00:00 to 24:00" })
  .regex(TIME_OF_DAY, "Times are written HH:MM, from 00:00 to 24:00");

const weeklyRangeSchema = z
  .object({
    weekday: z
      .number({ error: "weekday must be 1 (Monday) to 7 (Sunday)" })
      .int("weekday must be 1 (Monday) to 7 (Sunday)")
      .min(1, "weekday must be 1 (Monday) to 7 (Sunday)")
      .max(7, "weekday must be 1 (Monday) to 7 (Sunday)"),
    start: timeOfDaySchema,
    end: timeOfDaySchema,
  })
  .refine((range) => minutesOfDay(range.start) < minutesOfDay(range.end), { error: "Each range of hours must end after it starts" });

const dayOffSchema = z.iso
  .date("Days off are dates written YYYY-MM-DD")
  .refine((date) => date >= "2000-01-01" && date <= "2100-12-31", { error: "Days off must be between the years 2000 and 2100" });

/** PUT /api/admin/availability: the whole availability at once. */
export const availabilityInput = z.object({
  weekly: z.array(weeklyRangeSchema, { error: "weekly must be a list of ranges of hours" }).max(70, "At most 70 ranges of hours"),
  days_off: z
    .array(dayOffSchema, { error: "days_off must be a list of dates" })
    .max(366, "At most 366 days off")
    .default([])
    .transform((days) => [...new Set(days)].sort()),
  min_notice_hours: z
    .number({ error: "min_notice_hours must be a whole number of hours" })
    .int("min_notice_hours must be a whole number of hours")
    .min(0, "min_notice_hours cannot be negative")
    .max(MAX_MIN_NOTICE_HOURS, `min_notice_hours must be at most ${MAX_MIN_NOTICE_HOURS} (30 days)`)
    .default(DEFAULT_MIN_NOTICE_HOURS),
  horizon_days: z
    .number({ error: "horizon_days must be a whole number of days" })
    .int("horizon_days must be a whole number of days")
    .min(1, "horizon_days must be at least 1")
    .max(MAX_HORIZON_DAYS, `horizon_days must be at most ${MAX_HORIZON_DAYS}`)
    .default(DEFAULT_HORIZON_DAYS),
  max_upcoming_bookings: z
    .number({ error: "max_upcoming_bookings must be a whole number" })
    .int("max_upcoming_bookings must be a whole number")
    .min(1, "max_upcoming_bookings must be at least 1")
    .max(MAX_UPCOMING_BOOKINGS_LIMIT, `max_upcoming_bookings must be at most ${MAX_UPCOMING_BOOKINGS_LIMIT}`)
    .default(DEFAULT_MAX_UPCOMING_BOOKINGS),
  /** Closed on the US federal holidays (appointments/holidays.ts); on unless the firm opens on them. */
  skip_federal_holidays: z.boolean({ error: "skip_federal_holidays must be true or false" }).default(true),
});
export type AvailabilityInput = z.infer<typeof availabilityInput>;

export const availabilityOutput = z.object({
  weekly: z.array(z.object({ weekday: z.number(), start: z.string(), end: z.string() })),
  days_off: z.array(z.string()),
  min_notice_hours: z.number(),
  horizon_days: z.number(),
  /** Upcoming appointments one client may hold through self-booking (docs/security.md, "Round 3 (issue 28)"). */
  max_upcoming_bookings: z.number(),
  /** Self-booking skips the US federal holidays. */
  skip_federal_holidays: z.boolean(),
  /** The firm's zone (FIRM_TIME_ZONE), which every time above is on. */
  time_zone: z.string(),
});
export type Availability = z.infer<typeof availabilityOutput>;

export const MEETING_LOCATIONS = ["office", "phone", "video"] as const;
export type MeetingLocation = (typeof MEETING_LOCATIONS)[number];
export const MEETING_LOCATION_LABELS: Record<MeetingLocation, string> = { office: "At the office", phone: "Phone call", video: "Video call" };

const meetingTypeFields = {
  name: nameText("Name is required").min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  duration_minutes: z
    .number({ error: "duration_minutes must be a whole number of minutes" })
    .int("duration_minutes must be a whole number of minutes")
    .min(5, "A meeting lasts at least 5 minutes")
    .max(480, "A meeting lasts at most 480 minutes (8 hours)"),
  buffer_minutes: z
    .number({ error: "buffer_minutes must be a whole number of minutes" })
    .int("buffer_minutes must be a whole number of minutes")
    .min(0, "buffer_minutes cannot be negative")
    .max(240, "buffer_minutes must be at most 240 (4 hours)"),
  location: z.enum(MEETING_LOCATIONS, { error: "location must be office, phone or video" }),
  /** A video link, a phone number or directions, shown to the client and in the calendar entry. */
  location_detail: z.string({ error: "location_detail must be text" }).trim().max(500, "Location details must be at most 500 characters"),
  requires_approval: z.boolean({ error: "requires_approval must be true or false" }),
};

export const createMeetingTypeInput = z.object({
  ...meetingTypeFields,
  buffer_minutes: meetingTypeFields.buffer_minutes.default(0),
  location_detail: meetingTypeFields.location_detail.default(""),
  requires_approval: meetingTypeFields.requires_approval.default(false),
});
export type CreateMeetingTypeInput = z.infer<typeof createMeetingTypeInput>;

export const updateMeetingTypeInput = z.object({
  id: idSchema,
  name: meetingTypeFields.name.optional(),
  duration_minutes: meetingTypeFields.duration_minutes.optional(),
  buffer_minutes: meetingTypeFields.buffer_minutes.optional(),
  location: meetingTypeFields.location.optional(),
  location_detail: meetingTypeFields.location_detail.optional(),
  requires_approval: meetingTypeFields.requires_approval.optional(),
});
export type UpdateMeetingTypeInput = z.infer<typeof updateMeetingTypeInput>;

export const meetingTypeOutput = z.object({
  id: z.string(),
  name: z.string(),
  duration_minutes: z.number(),
  buffer_minutes: z.number(),
  location: z.enum(MEETING_LOCATIONS),
  location_detail: z.string(),
  requires_approval: z.boolean(),
});
export type MeetingType = z.infer<typeof meetingTypeOutput>;
