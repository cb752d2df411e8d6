import { TRPCError } from "@trpc/server";
import type { Context } from "../../trpc/context.ts";
import type { Success } from "../shared-schemas.ts";
import {
  findBookingRules,
  findMeetingType,
  insertMeetingType,
  listMeetingTypes,
  markMeetingTypeDeleted,
  replaceAvailability,
  updateMeetingTypeRow,
} from "./queries.ts";
import {
  type Availability,
  type AvailabilityInput,
  type CreateMeetingTypeInput,
  type MeetingType,
  minutesOfDay,
  timeOfDay,
  type UpdateMeetingTypeInput,
} from "./schemas.ts";

export const MEETING_TYPE_NOT_FOUND = "Meeting type not found";

export async function availability(ctx: Pick<Context, "db" | "config">): Promise<Availability> {
  const rules = await findBookingRules(ctx.db, ctx.config.firmTimeZone);
  return {
    weekly: rules.weekly.map((range) => ({ weekday: range.weekday, start: timeOfDay(range.start_minute), end: timeOfDay(range.end_minute) })),
    days_off: [...rules.daysOff],
    min_notice_hours: rules.minNoticeHours,
    horizon_days: rules.horizonDays,
    max_upcoming_bookings: rules.maxUpcomingBookings,
    skip_federal_holidays: rules.skipFederalHolidays,
    time_zone: rules.timeZone,
  };
}

/** Replaces the whole availability; bookings already made stay as they are. */
export async function setAvailability(ctx: Context, input: AvailabilityInput): Promise<Availability> {
  await ctx.db.transaction().execute((tx) =>
    replaceAvailability(
      tx,
      {
        ...input,
        weekly: input.weekly.map((range) => ({
          weekday: range.weekday,
          start_minute: minutesOfDay(range.start),
          end_minute: minutesOfDay(range.end),
        })),
      },
      ctx.now(),
    ),
  );
  return availability(ctx);
}

export function meetingTypes(ctx: Pick<Context, "db">): Promise<MeetingType[]> {
  return listMeetingTypes(ctx.db);
}

export function createMeetingType(ctx: Context, input: CreateMeetingTypeInput): Promise<MeetingType> {
  return insertMeetingType(ctx.db, input, ctx.now());
}

/** Changes apply to bookings from now on; booked appointments keep the length they were booked with. */
export async function updateMeetingType(ctx: Context, input: UpdateMeetingTypeInput): Promise<MeetingType> {
  const { id, ...changes } = input;
  const hasChanges = Object.values(changes).some((value) => value !== undefined);
  const updated = hasChanges ? await updateMeetingTypeRow(ctx.db, input) : await findMeetingType(ctx.db, id);
  if (!updated) throw new TRPCError({ code: "NOT_FOUND", message: MEETING_TYPE_NOT_FOUND });
  return updated;
}

/** No longer offered; appointments booked with it keep it. */
export async function deleteMeetingType(ctx: Context, input: { id: string }): Promise<Success> {
  if (!(await markMeetingTypeDeleted(ctx.db, input.id, ctx.now()))) throw new TRPCError({ code: "NOT_FOUND", message: MEETING_TYPE_NOT_FOUND });
  return { success: true };
}
