import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import { composeEmail } from "../../mail/compose.ts";
import type { Db } from "../../db/types.ts";
import type { Outgoing } from "../../jobs/email.ts";
import type { AppDeps, Context } from "../../trpc/context.ts";
import { greeting } from "../auth/email-verification.ts";
import { firmName } from "../site/service.ts";
import { PREFERRED_TIME_OPTIONS } from "../consultation/schemas.ts";
import { findAdminAppointment, insertAppointment, listUserAppointments, updateAppointment } from "./queries.ts";
import type { Appointment, createAppointmentInput, requestAppointmentInput, updateAppointmentInput } from "./schemas.ts";

import { WINDOW_START_HOUR, zoneName } from "./firm-clock.ts";

type AuthedCtx = Context & { user: { id: string } };

export async function listOwnAppointments(ctx: AuthedCtx): Promise<Appointment[]> {
  return listUserAppointments(ctx.db, ctx.user.id, ctx.now());
}

/** A client's request: a `requested` appointment at the start of the preferred window (docs/decisions.md, Appointments). */
export async function requestAppointment(ctx: AuthedCtx, input: z.infer<typeof requestAppointmentInput>): Promise<Appointment> {
  if (input.preferredDate < dateInZone(ctx.now(), ctx.config.firmTimeZone)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "Please choose a date from today on" });
  }
  const window = PREFERRED_TIME_OPTIONS.find((o) => o.value === input.preferredTime)!.label;
  const description = [`Preferred time: ${window}`, input.notes].filter(Boolean).join("\n\n");
  const { id } = await insertAppointment(ctx.db, {
    user_id: ctx.user.id,
    title: input.title,
    description,
    appointment_date: zonedTime(input.preferredDate, WINDOW_START_HOUR[input.preferredTime], ctx.config.firmTimeZone),
    status: "requested",
    now: ctx.now(),
  });
  const { user_id: _u, user_name: _n, user_email: _e, ...appointment } = (await findAdminAppointment(ctx.db, id))!;
  return appointment;
}

export async function createAppointmentForClient(ctx: Context, input: z.infer<typeof createAppointmentInput>) {
  const client = await ctx.db.selectFrom("users").select("id").where("id", "=", input.user_id).executeTakeFirst();
  if (!client) throw new TRPCError({ code: "NOT_FOUND", message: "User not found" });
  // The appointment and the client's email about it commit together.
  return ctx.db.transaction().execute(async (tx) => {
    const { id } = await insertAppointment(tx, { ...input, now: ctx.now() });
    const created = (await findAdminAppointment(tx, id))!;
    if (created.status === "scheduled") await notifyClient(ctx, tx, created, "scheduled");
    return created;
  });
}

export async function changeAppointment(ctx: Context, input: z.infer<typeof updateAppointmentInput>) {
  const { id, ...changes } = input;
  return ctx.db.transaction().execute(async (tx) => {
    const before = await findAdminAppointment(tx, id);
    const found = before && (await updateAppointment(tx, id, changes, ctx.now()));
    if (!found) throw new TRPCError({ code: "NOT_FOUND", message: "Appointment not found" });
    const after = (await findAdminAppointment(tx, id))!;
    const change = appointmentChange(before, after);
    if (change) await notifyClient(ctx, tx, after, change);
    return after;
  });
}

export type AppointmentChange = "scheduled" | "rescheduled" | "cancelled";

/** What the client hears about: the firm setting a time, moving a set time, or cancelling. */
export function appointmentChange(
  before: { status: string; appointment_date: Date },
  after: { status: string; appointment_date: Date },
): AppointmentChange | null {
  if (after.status === "cancelled") return before.status === "cancelled" ? null : "cancelled";
  if (after.status !== "scheduled") return null;
  if (before.status !== "scheduled") return "scheduled";
  return before.appointment_date.getTime() === after.appointment_date.getTime() ? null : "rescheduled";
}

const CHANGE_HEADINGS: Record<AppointmentChange, string> = {
  scheduled: "Your appointment is scheduled",
  rescheduled: "Your appointment has a new time",
  cancelled: "Your appointment is cancelled",
};

/** "Tuesday, March 4, 2025 at 2:30 PM Central Standard Time", on the firm's clock. */
export function formatFirmTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "full", timeStyle: "short" }).format(instant) + ` ${zoneName(instant, timeZone)}`;
}

/** Queues the client's email in the transaction that made the change. */
function notifyClient(ctx: Context, tx: Db, appointment: { id: string; appointment_date: Date }, change: AppointmentChange) {
  return ctx.jobs.send(
    "email",
    { kind: "appointment-change", appointmentId: appointment.id, change, at: appointment.appointment_date.toISOString() },
    { tx },
  );
}

/**
 * The client's email about a change: the time it was set to then, and the status. Only those: the
 * title and description are free text, and the address may be unverified (greeting() decides
 * whether the name may appear). The details are in the portal, behind the sign-in.
 */
export async function appointmentChangeMail(
  deps: AppDeps,
  job: { appointmentId: string; change: AppointmentChange; at: string },
): Promise<Outgoing | null> {
  const user = await deps.db
    .selectFrom("appointments")
    .innerJoin("users", "users.id", "appointments.user_id")
    .select(["users.name", "users.email", "users.email_verified_at"])
    .where("appointments.id", "=", job.appointmentId)
    .executeTakeFirst();
  if (!user) return null;
  const firm = await firmName(deps);
  const when = formatFirmTime(new Date(job.at), deps.config.firmTimeZone);
  const body = composeEmail({
    firmName: firm,
    heading: CHANGE_HEADINGS[job.change],
    paragraphs: [
      greeting({ name: user.name, email_verified: user.email_verified_at !== null }),
      job.change === "cancelled"
        ? `Your appointment on ${when} is cancelled. If you would like a new time, request one in the client portal or call us.`
        : `Your appointment is on ${when}.`,
    ],
    details: [["Status", job.change === "cancelled" ? "Cancelled" : "Scheduled"]],
    action: { label: "Open the client portal", url: new URL("/dashboard?tab=appointments", deps.config.publicUrl).toString() },
  });
  return { message: { to: user.email, subject: `${CHANGE_HEADINGS[job.change]} - ${firm}`, ...body } };
}

/** YYYY-MM-DD of `instant` on the wall calendar of `timeZone`. */
export function dateInZone(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

/** The instant at which the wall clock of `timeZone` shows `date` at `hour`:00. */
export function zonedTime(date: string, hour: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour);
  // Correct by the zone's offset at that moment; a second pass settles DST changes.
  let instant = wall - offsetMs(new Date(wall), timeZone);
  instant = wall - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

function offsetMs(instant: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    })
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}
