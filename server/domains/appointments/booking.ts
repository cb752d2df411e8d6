// Self-booking (docs/decisions.md, Self-booking): a client picks a free time of a meeting type,
// and may cancel or move their booking up to the firm's notice period before it starts. The free
// times come from slots.ts; whether a time is still free when it is booked is decided by the
// database (the exclusion constraint on `during`), so of two clients booking one time at once
// exactly one gets it and the other a 409, on Postgres and on the embedded database alike. One
// client holds at most the firm's number of upcoming bookings, and books, moves and cancels at most
// so often an hour (docs/security.md, "Round 3 (issue 28)").
import { TRPCError } from "@trpc/server";
import type { Db } from "../../db/types.ts";
import type { ClientContext, Context, FirmContext } from "../../trpc/context.ts";
import { findBookingRules, findMeetingType } from "../availability/queries.ts";
import type { MeetingType } from "../availability/schemas.ts";
import { MEETING_TYPE_NOT_FOUND } from "../availability/service.ts";
import type { ClientAction } from "./mail.ts";
import {
  type BookedTimes,
  busyIntervals,
  countUpcomingBookings,
  findAppointmentTimes,
  findAccountAppointment,
  insertBookedAppointment,
  listAppointmentsBetween,
  lockClientBookings,
  moveAppointment,
  setAppointmentStatus,
} from "./queries.ts";
import type { BookAppointmentInput, ClientAppointment, RescheduleAppointmentInput, Slot, SlotsInput } from "./schemas.ts";
import { PHONE_NEEDED } from "./schemas.ts";
import {
  APPOINTMENT_NOT_FOUND,
  conflictIfTaken,
  inboxAppointment,
  notifyClient,
  OPEN_STATUSES,
  reminderFor,
  SLOT_TAKEN,
  withChangeDeadline,
} from "./service.ts";
import { addDays, isoWithOffset, localDate, wallTimeToInstant } from "./firm-clock.ts";
import { type BookingRules, freeSlots, type Interval } from "./slots.ts";

const SLOT_NOT_OFFERED = "That time is not one of the times offered for this meeting";
const NOT_BOOKED_ONLINE = "This appointment was not booked online; please contact us to change it";
const NOT_OPEN = "This appointment is already cancelled or completed";
const SAME_TIME = "That is the appointment's current time";

function tooManyUpcoming(max: number): string {
  return `You already have ${max} upcoming appointment${max === 1 ? "" : "s"} booked online, the most we allow. Please cancel or move one, or call us.`;
}

function tooLateToChange(minNoticeHours: number): string {
  return `Appointments can be cancelled or moved online up to ${minNoticeHours} hours before they start. Please call us to change this one.`;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

type Lengths = { durationMinutes: number; bufferMinutes: number };

/** The free times for a meeting type, or for moving one of the caller's appointments. */
export async function availableSlots(ctx: ClientContext, input: SlotsInput): Promise<Slot[]> {
  const rules = await findBookingRules(ctx.db, ctx.config.firmTimeZone);
  let lengths: Lengths;
  let exceptId: string | undefined;
  if (input.type) {
    lengths = lengthsOf(await bookableType(ctx.db, input.type));
  } else {
    const appointment = await findAppointmentTimes(ctx.db, input.appointment!, ctx.account.id);
    if (!appointment) throw new TRPCError({ code: "NOT_FOUND", message: APPOINTMENT_NOT_FOUND });
    lengths = bookedLengths(appointment);
    exceptId = appointment.id;
  }
  const now = ctx.now();
  const from = input.from === undefined ? undefined : slotBound(input.from, rules.timeZone, "from");
  const to = input.to === undefined ? undefined : slotBound(input.to, rules.timeZone, "to");
  const window = { from: from && from > now ? from : now, to: to && to < bookableUntil(rules, now) ? to : bookableUntil(rules, now) };
  if (window.to <= window.from) return [];
  // Busy times up to a day past the window, which covers any slot (and buffer) starting inside it.
  const busy = await busyIntervals(ctx.db, { from: window.from, to: new Date(window.to.getTime() + DAY_MS), exceptId });
  return freeSlots({ rules, ...lengths, busy, now, from: window.from, to: window.to }).map((slot) => ({
    start: isoWithOffset(slot.start, rules.timeZone),
    end: isoWithOffset(slot.end, rules.timeZone),
  }));
}

/** A client books a free time: `scheduled`, or `requested` when the meeting type needs the firm's approval. */
export async function bookAppointment(ctx: ClientContext, input: BookAppointmentInput): Promise<ClientAppointment> {
  await ctx.rateLimits.consumeBookingChange(ctx.user.id);
  const type = await bookableType(ctx.db, input.type);
  if (type.location === "phone" && input.phone === "") throw new TRPCError({ code: "BAD_REQUEST", message: PHONE_NEEDED });
  const rules = await findBookingRules(ctx.db, ctx.config.firmTimeZone);
  const now = ctx.now();
  const lengths = lengthsOf(type);
  assertOffered(rules, lengths, input.start, now);
  const status = type.requires_approval ? "requested" : "scheduled";
  const id = await inBookingTransaction(ctx, async (tx) => {
    // One client may not take every free time (docs/security.md, "Round 3 (issue 28)").
    await lockClientBookings(tx, ctx.account.id);
    if ((await countUpcomingBookings(tx, ctx.account.id, now)) >= rules.maxUpcomingBookings) {
      throw new TRPCError({ code: "CONFLICT", message: tooManyUpcoming(rules.maxUpcomingBookings) });
    }
    await assertFree(tx, rules, lengths, input.start, now);
    const { id } = await insertBookedAppointment(tx, {
      account_id: ctx.account.id,
      booked_by: ctx.user.id,
      meeting_type_id: type.id,
      title: type.name,
      // The firm reads the number it calls where it reads the client's notes.
      description: type.location === "phone" && input.phone ? [`Phone: ${input.phone}`, input.notes].filter(Boolean).join("\n\n") : input.notes,
      status,
      times: timesOf(input.start, lengths),
      reminder_for: status === "scheduled" ? reminderFor(input.start, now) : null,
      now,
    });
    await tell(ctx, tx, { id, at: input.start, sequence: 0 }, status === "requested" ? "requested" : "booked");
    await inboxAppointment(tx, ctx, status === "requested" ? "appointment_request" : "appointment_booked", {
      id,
      title: type.name,
      start: input.start,
    });
    return id;
  });
  return ownAppointment(ctx, id, rules);
}

/** The client cancels their own requested or scheduled appointment, up to the notice period before it. */
export async function cancelOwnAppointment(ctx: ClientContext, input: { id: string }): Promise<ClientAppointment> {
  await ctx.rateLimits.consumeBookingChange(ctx.user.id);
  const rules = await findBookingRules(ctx.db, ctx.config.firmTimeZone);
  const now = ctx.now();
  await ctx.db.transaction().execute(async (tx) => {
    const appointment = await changeableAppointment(tx, ctx.account.id, input.id, rules, now);
    await setAppointmentStatus(tx, appointment.id, "cancelled", now);
    await tell(ctx, tx, { id: appointment.id, at: appointment.appointment_date, sequence: appointment.ics_sequence + 1 }, "cancelled");
    await inboxAppointment(tx, ctx, "appointment_cancelled", { id: appointment.id, title: appointment.title, start: appointment.appointment_date });
  });
  return ownAppointment(ctx, input.id, rules);
}

/**
 * The client moves their own booking to another free time, up to the notice period before its
 * current start. It keeps its length and buffer; it needs the firm's approval again if its type does.
 */
export async function rescheduleOwnAppointment(ctx: ClientContext, input: RescheduleAppointmentInput): Promise<ClientAppointment> {
  await ctx.rateLimits.consumeBookingChange(ctx.user.id);
  const rules = await findBookingRules(ctx.db, ctx.config.firmTimeZone);
  const now = ctx.now();
  await inBookingTransaction(ctx, async (tx) => {
    const appointment = await changeableAppointment(tx, ctx.account.id, input.id, rules, now);
    if (!appointment.meeting_type_id) throw new TRPCError({ code: "CONFLICT", message: NOT_BOOKED_ONLINE });
    if (appointment.appointment_date.getTime() === input.start.getTime()) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: SAME_TIME });
    const lengths = bookedLengths(appointment);
    assertOffered(rules, lengths, input.start, now);
    await assertFree(tx, rules, lengths, input.start, now, appointment.id);
    const type = (await findMeetingType(tx, appointment.meeting_type_id, { includeDeleted: true }))!;
    const status = type.requires_approval ? "requested" : "scheduled";
    await moveAppointment(tx, appointment.id, {
      times: timesOf(input.start, lengths),
      status,
      reminder_for: status === "scheduled" ? reminderFor(input.start, now) : null,
      now,
    });
    const sequence = appointment.ics_sequence + 1;
    await notifyClient(ctx, tx, { id: appointment.id, at: input.start, sequence }, status === "requested" ? "requested" : "rescheduled");
    await notifyFirm(ctx, tx, { id: appointment.id, at: input.start, sequence }, "rescheduled");
    await inboxAppointment(tx, ctx, status === "requested" ? "appointment_request" : "appointment_rescheduled", {
      id: appointment.id,
      title: type.name,
      start: input.start,
      previousStart: appointment.appointment_date,
    });
  });
  return ownAppointment(ctx, input.id, rules);
}

/** Admin week view: the appointments (cancelled ones left out) that start in [from, to). */
export function appointmentCalendar(ctx: FirmContext, input: { from: Date; to: Date }) {
  return listAppointmentsBetween(ctx.db, ctx.firmScope, input);
}

async function bookableType(db: Db, id: string): Promise<MeetingType> {
  const type = await findMeetingType(db, id);
  if (!type) throw new TRPCError({ code: "NOT_FOUND", message: MEETING_TYPE_NOT_FOUND });
  return type;
}

function lengthsOf(type: MeetingType): Lengths {
  return { durationMinutes: type.duration_minutes, bufferMinutes: type.buffer_minutes };
}

/** A booked appointment's own length and buffer, as booked (its type may have changed since). */
function bookedLengths(appointment: { appointment_date: Date; ends_at: Date | null; busy_until: Date | null }): Lengths {
  if (!appointment.ends_at || !appointment.busy_until) throw new TRPCError({ code: "CONFLICT", message: NOT_BOOKED_ONLINE });
  return {
    durationMinutes: (appointment.ends_at.getTime() - appointment.appointment_date.getTime()) / MINUTE_MS,
    bufferMinutes: (appointment.busy_until.getTime() - appointment.ends_at.getTime()) / MINUTE_MS,
  };
}

function timesOf(start: Date, lengths: Lengths): BookedTimes {
  const end = new Date(start.getTime() + lengths.durationMinutes * MINUTE_MS);
  return { start, end, busyUntil: new Date(end.getTime() + lengths.bufferMinutes * MINUTE_MS) };
}

/** The end of the last bookable day (the horizon), on the firm's calendar. */
function bookableUntil(rules: BookingRules, now: Date): Date {
  return wallTimeToInstant(addDays(localDate(now, rules.timeZone), rules.horizonDays + 1), 0, rules.timeZone);
}

/** A bound as an instant: a date is the start of that day on the firm's calendar (`to`: its end). */
function slotBound(bound: Date | string, timeZone: string, side: "from" | "to"): Date {
  if (bound instanceof Date) return bound;
  if (bound.includes("T")) return new Date(bound);
  return wallTimeToInstant(side === "to" ? addDays(bound, 1) : bound, 0, timeZone);
}

/** 422 unless `start` is one of the times the rules offer for this length (taken or not). */
function assertOffered(rules: BookingRules, lengths: Lengths, start: Date, now: Date): void {
  const offered = freeSlots({ rules, ...lengths, busy: [], now, from: start, to: new Date(start.getTime() + 1) });
  if (offered.length === 0) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: SLOT_NOT_OFFERED });
}

/**
 * 409 when another booking (or a time the firm entered) holds `start` already. The constraint
 * decides between bookings made at the same moment; this check names the usual case without an
 * error from the database, and covers the firm's own entries, which have no range.
 */
async function assertFree(tx: Db, rules: BookingRules, lengths: Lengths, start: Date, now: Date, exceptId?: string): Promise<void> {
  const until = new Date(start.getTime() + (lengths.durationMinutes + lengths.bufferMinutes) * MINUTE_MS);
  const busy: Interval[] = await busyIntervals(tx, { from: start, to: until, exceptId });
  const free = freeSlots({ rules, ...lengths, busy, now, from: start, to: new Date(start.getTime() + 1) });
  if (free.length === 0) throw new TRPCError({ code: "CONFLICT", message: SLOT_TAKEN });
}

/** The caller's appointment, locked, if it is still theirs to change (404, 409 otherwise). */
async function changeableAppointment(tx: Db, accountId: string, id: string, rules: BookingRules, now: Date) {
  const appointment = await findAppointmentTimes(tx, id, accountId, { lock: true });
  if (!appointment) throw new TRPCError({ code: "NOT_FOUND", message: APPOINTMENT_NOT_FOUND });
  if (!OPEN_STATUSES.includes(appointment.status)) throw new TRPCError({ code: "CONFLICT", message: NOT_OPEN });
  const { changeable_until } = withChangeDeadline(appointment, rules.minNoticeHours);
  if (changeable_until && now > changeable_until) throw new TRPCError({ code: "CONFLICT", message: tooLateToChange(rules.minNoticeHours) });
  return appointment;
}

async function inBookingTransaction<T>(ctx: Context, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute(work);
  } catch (err) {
    throw conflictIfTaken(err);
  }
}

/** The client's mail and the firm's, queued with the change. */
async function tell(ctx: Context, tx: Db, appointment: { id: string; at: Date; sequence: number }, action: ClientAction): Promise<void> {
  await notifyClient(ctx, tx, appointment, action);
  await notifyFirm(ctx, tx, appointment, action);
}

function notifyFirm(ctx: Context, tx: Db, appointment: { id: string; at: Date; sequence: number }, action: ClientAction) {
  return ctx.jobs.send(
    "email",
    { kind: "appointment-firm-notice", appointmentId: appointment.id, action, at: appointment.at.toISOString(), sequence: appointment.sequence },
    { tx },
  );
}

async function ownAppointment(ctx: ClientContext, id: string, rules: BookingRules): Promise<ClientAppointment> {
  const appointment = await findAccountAppointment(ctx.db, ctx.account.id, id);
  if (!appointment) throw new TRPCError({ code: "NOT_FOUND", message: APPOINTMENT_NOT_FOUND });
  return withChangeDeadline(appointment, rules.minNoticeHours);
}
