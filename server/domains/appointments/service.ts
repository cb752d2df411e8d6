import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import { EXCLUSION_VIOLATION, isPgError } from "../../db/errors.ts";
import type { Db } from "../../db/types.ts";
import type { ClientContext, Context, FirmContext } from "../../trpc/context.ts";
import { accountForFirm } from "../accounts/service.ts";
import { accountHasMailRecipients } from "../accounts/queries.ts";
import { chargedIfMailing } from "../../trpc/firm-mail-cap.ts";
import { findBookingRules } from "../availability/queries.ts";
import { PREFERRED_TIME_OPTIONS } from "../consultation/schemas.ts";
import type { AppointmentChange } from "./mail.ts";
import {
  type BookedTimes,
  findAdminAppointment,
  findAppointmentTimesForFirm,
  findAccountAppointment,
  insertAppointment,
  listAdminAppointments,
  listAccountAppointments,
  moveAppointment,
  setAppointmentStatus,
  updateAppointment,
} from "./queries.ts";
import type { Appointment, ClientAppointment, createAppointmentInput, requestAppointmentInput, updateAppointmentInput } from "./schemas.ts";
import { localDate, wallTimeToInstant, WINDOW_START_HOUR } from "./firm-clock.ts";
import { addToInbox } from "../inbox/queries.ts";
import type { ListPageInput } from "../admin/schemas.ts";
import { listPage } from "../list-page.ts";

export const APPOINTMENT_NOT_FOUND = "Appointment not found";
export const SLOT_TAKEN = "That time is no longer available";

const HOUR_MS = 60 * 60 * 1000;
/** The reminder goes this long before the start (docs/decisions.md, Self-booking). */
export const REMINDER_BEFORE_MS = 24 * HOUR_MS;

/** Statuses in which an appointment still holds its time and may change. */
export const OPEN_STATUSES: readonly string[] = ["requested", "scheduled"];

/** The appointments and their times as the client sees them, with until when they may change them online. */
export async function listOwnAppointments(ctx: ClientContext): Promise<ClientAppointment[]> {
  const [appointments, rules] = await Promise.all([
    listAccountAppointments(ctx.db, ctx.account.id, ctx.now()),
    findBookingRules(ctx.db, ctx.config.firmTimeZone),
  ]);
  return appointments.map((appointment) => withChangeDeadline(appointment, rules.minNoticeHours));
}

/** The last moment the client may cancel or move it themselves: the notice period before the start. */
export function withChangeDeadline<T extends Pick<Appointment, "appointment_date" | "status">>(appointment: T, minNoticeHours: number) {
  const open = OPEN_STATUSES.includes(appointment.status);
  return { ...appointment, changeable_until: open ? new Date(appointment.appointment_date.getTime() - minNoticeHours * HOUR_MS) : null };
}

/**
 * Null when the start is more than a day away (the reminder sweep will send one), else the start:
 * the mail about the booking or the change, sent now, is the reminder.
 */
export function reminderFor(start: Date, now: Date): Date | null {
  return start.getTime() - now.getTime() <= REMINDER_BEFORE_MS ? start : null;
}

/** A client's request: a `requested` appointment at the start of the preferred window (docs/decisions.md, Appointments). */
export async function requestAppointment(ctx: ClientContext, input: z.infer<typeof requestAppointmentInput>): Promise<ClientAppointment> {
  if (input.preferredDate < localDate(ctx.now(), ctx.config.firmTimeZone)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "Please choose a date from today on" });
  }
  const window = PREFERRED_TIME_OPTIONS.find((o) => o.value === input.preferredTime)!.label;
  const description = [`Preferred time: ${window}`, input.notes].filter(Boolean).join("\n\n");
  const start = zonedTime(input.preferredDate, WINDOW_START_HOUR[input.preferredTime], ctx.config.firmTimeZone);
  const id = await ctx.db.transaction().execute(async (tx) => {
    const { id } = await insertAppointment(tx, {
      account_id: ctx.account.id,
      booked_by: ctx.user.id,
      title: input.title,
      description,
      appointment_date: start,
      status: "requested",
      now: ctx.now(),
    });
    await inboxAppointment(tx, ctx, "appointment_request", { id, title: input.title, start });
    return id;
  });
  const [appointment, rules] = await Promise.all([
    findAccountAppointment(ctx.db, ctx.account.id, id),
    findBookingRules(ctx.db, ctx.config.firmTimeZone),
  ]);
  return withChangeDeadline(appointment!, rules.minNoticeHours);
}

/**
 * What a client did with an appointment, in the firm's Inbox (with the change's transaction): asked
 * for one (or moved it into a state that needs approval), booked, moved or cancelled one. The latest
 * of these about one appointment is what its unread item says (inbox/queries.ts).
 */
export async function inboxAppointment(
  tx: Db,
  ctx: ClientContext,
  kind: "appointment_request" | "appointment_booked" | "appointment_rescheduled" | "appointment_cancelled",
  appointment: { id: string; title: string; start: Date; previousStart?: Date },
): Promise<void> {
  await addToInbox(tx, {
    kind,
    account_id: ctx.account.id,
    actor_id: ctx.user.id,
    subject_id: appointment.id,
    summary: {
      title: appointment.title,
      start: appointment.start.toISOString(),
      ...(appointment.previousStart ? { previous_start: appointment.previousStart.toISOString() } : {}),
    },
    at: ctx.now(),
  });
}

export async function createAppointmentForClient(ctx: FirmContext, input: z.infer<typeof createAppointmentInput>) {
  const { user_id, account_id, ...appointment } = input;
  const accountId = await accountForFirm(ctx.db, ctx.firmScope, { user_id, account_id }, "User not found");
  // A scheduled appointment mails the client, if the account has anyone to mail (docs/security.md,
  // "Round 4 (issue 47): reminders and the mail cap count only mail that goes").
  const likely = appointment.status === "scheduled" && (await accountHasMailRecipients(ctx.db, accountId));
  // The appointment and the client's email about it commit together.
  return chargedIfMailing(ctx, likely, (mail) =>
    ctx.db.transaction().execute(async (tx) => {
      const { id } = await insertAppointment(tx, { ...appointment, account_id: accountId, now: ctx.now() });
      const created = (await findAdminAppointment(tx, ctx.firmScope, id))!;
      if (created.status === "scheduled") {
        if (await accountHasMailRecipients(tx, accountId)) mail.mayMail();
        await notifyClient(ctx, tx, { id, at: created.appointment_date, sequence: 0 }, "scheduled");
      }
      return created;
    }),
  );
}

/**
 * The firm changes an appointment: its time, status, title or description. A booked appointment
 * keeps its length and buffer when it moves, and the database refuses a time another booking holds.
 */
export async function changeAppointment(ctx: FirmContext, input: z.infer<typeof updateAppointmentInput>) {
  const { id, appointment_date: date, status, ...texts } = input;
  const now = ctx.now();
  // A new time or status may mail the client; a change of its texts alone never does. Charged only
  // when it does (docs/security.md, "Round 4 (issue 47): reminders and the mail cap count only mail that goes").
  const likely = date !== undefined || status !== undefined;
  try {
    return await chargedIfMailing(ctx, likely, (mail) =>
      ctx.db.transaction().execute(async (tx) => {
        const current = await findAppointmentTimesForFirm(tx, ctx.firmScope, id, { lock: true });
        const before = current && (await findAdminAppointment(tx, ctx.firmScope, id));
        if (!current || !before) throw new TRPCError({ code: "NOT_FOUND", message: APPOINTMENT_NOT_FOUND });
        const nextStatus = status ?? current.status;
        const reminder = nextStatus === "scheduled" ? reminderFor(date ?? current.appointment_date, now) : null;
        if (date && date.getTime() !== current.appointment_date.getTime()) {
          await moveAppointment(tx, id, { times: movedTimes(current, date), status: nextStatus, reminder_for: reminder, now });
        } else if (nextStatus !== current.status) {
          await setAppointmentStatus(tx, id, nextStatus, now, reminder);
        }
        await updateAppointment(tx, id, texts, now);
        const after = (await findAdminAppointment(tx, ctx.firmScope, id))!;
        const change = appointmentChange(before, after);
        if (change) {
          if (await accountHasMailRecipients(tx, current.account_id)) mail.mayMail();
          await notifyClient(
            ctx,
            tx,
            { id, at: after.appointment_date, sequence: (await findAppointmentTimesForFirm(tx, ctx.firmScope, id))!.ics_sequence },
            change,
          );
        }
        return after;
      }),
    );
  } catch (err) {
    throw conflictIfTaken(err);
  }
}

/** The times of an appointment moved to `start`: a booked one keeps its length and its buffer. */
function movedTimes(current: { appointment_date: Date; ends_at: Date | null; busy_until: Date | null }, start: Date): BookedTimes | { start: Date } {
  if (!current.ends_at || !current.busy_until) return { start };
  const shift = start.getTime() - current.appointment_date.getTime();
  return { start, end: new Date(current.ends_at.getTime() + shift), busyUntil: new Date(current.busy_until.getTime() + shift) };
}

/** The exclusion constraint's refusal as the answer a client understands (409); anything else unchanged. */
export function conflictIfTaken(err: unknown): unknown {
  return isPgError(err, EXCLUSION_VIOLATION) ? new TRPCError({ code: "CONFLICT", message: SLOT_TAKEN, cause: err }) : err;
}

/** What the client hears about: the firm setting a time, moving a set time, or cancelling. */
function appointmentChange(
  before: { status: string; appointment_date: Date },
  after: { status: string; appointment_date: Date },
): AppointmentChange | null {
  if (after.status === "cancelled") return before.status === "cancelled" ? null : "cancelled";
  if (after.status !== "scheduled") return null;
  if (before.status !== "scheduled") return "scheduled";
  return before.appointment_date.getTime() === after.appointment_date.getTime() ? null : "rescheduled";
}

/** Queues the client's email in the transaction that made the change. */
export function notifyClient(ctx: Context, tx: Db, appointment: { id: string; at: Date; sequence: number }, change: AppointmentChange) {
  return ctx.jobs.send(
    "email",
    { kind: "appointment-change", appointmentId: appointment.id, change, at: appointment.at.toISOString(), sequence: appointment.sequence },
    { tx },
  );
}

/** The instant at which the wall clock of `timeZone` shows `date` at `hour`:00. */
export function zonedTime(date: string, hour: number, timeZone: string): Date {
  return wallTimeToInstant(date, hour * 60, timeZone);
}

/** Every client's appointments, a page at a time, or one client's (`user_id`). */
export const appointmentPage = async (ctx: FirmContext, input: ListPageInput & { user_id?: string; account_id?: string }) => {
  const { user_id, account_id } = input;
  const accountId = user_id || account_id ? await accountForFirm(ctx.db, ctx.firmScope, { user_id, account_id }, "User not found") : undefined;
  return listPage(input, (w) => listAdminAppointments(ctx.db, ctx.firmScope, { ...w, accountId }));
};
