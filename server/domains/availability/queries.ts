import type { Db } from "../../db/types.ts";
import type { BookingRules } from "../appointments/slots.ts";
import type { CreateMeetingTypeInput, MeetingType, UpdateMeetingTypeInput } from "./schemas.ts";

/** The firm's booking rules: what the slot computation takes, and the cap checked when a client books. */
type FirmBookingRules = BookingRules & {
  /** Upcoming appointments one client may hold through self-booking (docs/security.md, "Round 3 (issue 28)"). */
  maxUpcomingBookings: number;
  skipFederalHolidays: boolean;
};

/** The firm's booking rules as the slot computation takes them. */
export async function findBookingRules(db: Db, timeZone: string): Promise<FirmBookingRules> {
  const [settings, weekly, daysOff] = await Promise.all([
    db
      .selectFrom("booking_settings")
      .select(["min_notice_hours", "horizon_days", "max_upcoming_bookings", "skip_federal_holidays"])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("availability_ranges")
      .select(["weekday", "start_minute", "end_minute"])
      .orderBy("weekday")
      .orderBy("start_minute")
      .orderBy("end_minute")
      .execute(),
    db.selectFrom("days_off").select("day").orderBy("day").execute(),
  ]);
  return {
    timeZone,
    weekly,
    daysOff: daysOff.map((row) => row.day),
    skipFederalHolidays: settings.skip_federal_holidays,
    minNoticeHours: settings.min_notice_hours,
    horizonDays: settings.horizon_days,
    maxUpcomingBookings: settings.max_upcoming_bookings,
  };
}

/** Replaces the weekly hours, the days off and the settings (inside the caller's transaction). */
export async function replaceAvailability(
  tx: Db,
  availability: {
    weekly: Array<{ weekday: number; start_minute: number; end_minute: number }>;
    days_off: string[];
    min_notice_hours: number;
    horizon_days: number;
    max_upcoming_bookings: number;
    skip_federal_holidays: boolean;
  },
  now: Date,
): Promise<void> {
  await tx
    .updateTable("booking_settings")
    .set({
      min_notice_hours: availability.min_notice_hours,
      horizon_days: availability.horizon_days,
      max_upcoming_bookings: availability.max_upcoming_bookings,
      skip_federal_holidays: availability.skip_federal_holidays,
      updated_at: now,
    })
    .execute();
  await tx.deleteFrom("availability_ranges").execute();
  if (availability.weekly.length > 0) await tx.insertInto("availability_ranges").values(availability.weekly).execute();
  await tx.deleteFrom("days_off").execute();
  if (availability.days_off.length > 0) {
    await tx
      .insertInto("days_off")
      .values(availability.days_off.map((day) => ({ day })))
      .execute();
  }
}

const meetingTypeColumns = ["id", "name", "duration_minutes", "buffer_minutes", "location", "location_detail", "requires_approval"] as const;

/** The types clients may book, by name. */
export function listMeetingTypes(db: Db): Promise<MeetingType[]> {
  return db.selectFrom("meeting_types").select(meetingTypeColumns).where("deleted_at", "is", null).orderBy("name").orderBy("id").execute();
}

/** A type clients may book; a deleted one only when asked for (appointments made with it keep its lengths and place). */
export function findMeetingType(db: Db, id: string, opts: { includeDeleted?: boolean } = {}): Promise<MeetingType | undefined> {
  let query = db.selectFrom("meeting_types").select(meetingTypeColumns).where("id", "=", id);
  if (!opts.includeDeleted) query = query.where("deleted_at", "is", null);
  return query.executeTakeFirst();
}

export function insertMeetingType(db: Db, input: CreateMeetingTypeInput, now: Date): Promise<MeetingType> {
  return db
    .insertInto("meeting_types")
    .values({ ...input, created_at: now })
    .returning(meetingTypeColumns)
    .executeTakeFirstOrThrow();
}

export function updateMeetingTypeRow(db: Db, input: UpdateMeetingTypeInput): Promise<MeetingType | undefined> {
  const { id, ...changes } = input;
  return db
    .updateTable("meeting_types")
    .set(changes)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .returning(meetingTypeColumns)
    .executeTakeFirst();
}

export async function markMeetingTypeDeleted(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("meeting_types")
    .set({ deleted_at: now })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
