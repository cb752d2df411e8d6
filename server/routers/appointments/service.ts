import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Context } from "../../trpc/context.ts";
import { PREFERRED_TIME_OPTIONS } from "../consultation/schemas.ts";
import { findAdminAppointment, insertAppointment, listUserAppointments, updateAppointment } from "./queries.ts";
import type { Appointment, createAppointmentInput, requestAppointmentInput, updateAppointmentInput } from "./schemas.ts";

/**
 * The firm's wall clock, for turning "March 3, afternoon" into an instant. The default site
 * address is in Illinois; a firm elsewhere changes this one constant.
 */
export const FIRM_TIME_ZONE = "America/Chicago";
const WINDOW_START_HOUR = { morning: 9, afternoon: 12, evening: 17 } as const;

type AuthedCtx = Context & { user: { id: string } };

export async function listOwnAppointments(ctx: AuthedCtx): Promise<Appointment[]> {
  return listUserAppointments(ctx.db, ctx.user.id, ctx.now());
}

/** A client's request: a `requested` appointment at the start of the preferred window (decisions.md). */
export async function requestAppointment(ctx: AuthedCtx, input: z.infer<typeof requestAppointmentInput>): Promise<Appointment> {
  if (input.preferredDate < dateInZone(ctx.now(), FIRM_TIME_ZONE)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "Please choose a date from today on" });
  }
  const window = PREFERRED_TIME_OPTIONS.find((o) => o.value === input.preferredTime)!.label;
  const description = [`Preferred time: ${window}`, input.notes].filter(Boolean).join("\n\n");
  const { id } = await insertAppointment(ctx.db, {
    user_id: ctx.user.id,
    title: input.title,
    description,
    appointment_date: zonedTime(input.preferredDate, WINDOW_START_HOUR[input.preferredTime], FIRM_TIME_ZONE),
    status: "requested",
    now: ctx.now(),
  });
  const { user_id: _u, user_name: _n, user_email: _e, ...appointment } = (await findAdminAppointment(ctx.db, id))!;
  return appointment;
}

export async function createAppointmentForClient(ctx: Context, input: z.infer<typeof createAppointmentInput>) {
  const client = await ctx.db.selectFrom("users").select("id").where("id", "=", input.user_id).executeTakeFirst();
  if (!client) throw new TRPCError({ code: "NOT_FOUND", message: "User not found" });
  const { id } = await insertAppointment(ctx.db, { ...input, now: ctx.now() });
  return (await findAdminAppointment(ctx.db, id))!;
}

export async function changeAppointment(ctx: Context, input: z.infer<typeof updateAppointmentInput>) {
  const { id, ...changes } = input;
  const found = await updateAppointment(ctx.db, id, changes, ctx.now());
  if (!found) throw new TRPCError({ code: "NOT_FOUND", message: "Appointment not found" });
  return (await findAdminAppointment(ctx.db, id))!;
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
