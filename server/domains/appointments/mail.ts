// The emails about appointments, written when their jobs run: the client's about a change (with a
// calendar entry for a booked appointment), the firm's about a client's booking, move or
// cancellation (with the same entry), and the client's reminder a day before. What a client typed
// (title, notes) never goes into the client's mail, whose address may not be theirs; the firm's own
// mail shows it. The calendar entry keeps one UID per appointment and raises SEQUENCE with every
// change, so calendar programs update or remove the entry they already have.
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { MailAttachment } from "../../mail/mailer.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { accountMailRecipients } from "../accounts/service.ts";
import { greeting } from "../auth/mail.ts";
import { MEETING_LOCATION_LABELS, type MeetingLocation } from "../availability/schemas.ts";
import { defaultSiteContent } from "../site/defaults.ts";
import { findSiteValue } from "../site/queries.ts";
import { findAppointmentForMail } from "./queries.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import { zoneName } from "./firm-clock.ts";

/** What the client hears about: a booking, the firm setting or moving a time, a cancellation. */
export type AppointmentChange = "booked" | "requested" | "scheduled" | "rescheduled" | "cancelled";
/** What the firm hears about: what a client did themselves. */
export type ClientAction = "booked" | "requested" | "rescheduled" | "cancelled";

const CHANGE_HEADINGS: Record<AppointmentChange, string> = {
  booked: "Your appointment is booked",
  requested: "We received your appointment request",
  scheduled: "Your appointment is scheduled",
  rescheduled: "Your appointment has a new time",
  cancelled: "Your appointment is cancelled",
};

const FIRM_HEADINGS: Record<ClientAction, string> = {
  booked: "New booking",
  requested: "Booking to approve",
  rescheduled: "Booking moved",
  cancelled: "Booking cancelled",
};

/** "Tuesday, March 4, 2025 at 2:30 PM Central Standard Time", on the firm's clock. */
function formatFirmTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "full", timeStyle: "short" }).format(instant) + ` ${zoneName(instant, timeZone)}`;
}

type AppointmentForMail = {
  /** The greeting of every contact with notify (accountMailRecipients). */
  hello: string;
  userName: string;
  email: string;
  /** Every contact of the account with notify (the client's mails go to all of them). */
  to: string;
  emailVerified: boolean;
  title: string;
  description: string;
  status: string;
  appointmentDate: Date;
  /** Minutes the booked meeting lasts; null for an appointment without a meeting type. */
  durationMinutes: number | null;
  typeName: string | null;
  location: MeetingLocation | null;
  locationDetail: string | null;
};

async function appointmentForMail(deps: AppDeps, id: string): Promise<AppointmentForMail | null> {
  const row = await findAppointmentForMail(deps.db, id);
  if (!row) return null;
  const people = await accountMailRecipients(deps.db, row.account_id);
  return {
    hello: people?.hello ?? greeting({ name: row.name, email_verified: row.email_verified_at !== null }),
    userName: row.name,
    email: row.email,
    to: row.to,
    emailVerified: row.email_verified_at !== null,
    title: row.title,
    description: row.description,
    status: row.status,
    appointmentDate: row.appointment_date,
    durationMinutes: row.ends_at ? Math.round((row.ends_at.getTime() - row.appointment_date.getTime()) / 60_000) : null,
    typeName: row.type_name,
    location: row.location,
    locationDetail: row.location_detail,
  };
}

function portalLink(deps: AppDeps): string {
  return new URL("/dashboard?tab=appointments", deps.config.publicUrl).toString();
}

async function firmAddress(deps: AppDeps): Promise<string> {
  return (await findSiteValue(deps.db, "contact", "address"))?.trim() || defaultSiteContent(deps.config).contact.address!;
}

/** "At the office: 120 Main Street ...", "Video call: https://...", "Phone call". */
async function placeOf(deps: AppDeps, appointment: AppointmentForMail): Promise<string | null> {
  if (!appointment.location) return null;
  const detail = appointment.location === "office" ? appointment.locationDetail || (await firmAddress(deps)) : appointment.locationDetail;
  return detail ? `${MEETING_LOCATION_LABELS[appointment.location]}: ${detail}` : MEETING_LOCATION_LABELS[appointment.location];
}

/**
 * The calendar entry for a booked appointment at `at` (its time when the change was made): METHOD
 * REQUEST while it stands, CANCEL once cancelled; TENTATIVE while the firm has to approve it.
 */
async function calendarEntry(
  deps: AppDeps,
  appointmentId: string,
  appointment: AppointmentForMail,
  change: { at: Date; sequence: number; cancelled: boolean; tentative: boolean },
): Promise<MailAttachment | null> {
  if (appointment.durationMinutes === null) return null;
  const [firm, firmEmail, place] = await Promise.all([firmName(deps), firmContactEmail(deps), placeOf(deps, appointment)]);
  const method = change.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST;
  const calendar = ical({ method, prodId: { company: oneLine(firm), product: "Client Portal", language: "EN" } });
  calendar.createEvent({
    id: `appointment-${appointmentId}@${new URL(deps.config.publicUrl).hostname}`,
    sequence: change.sequence,
    stamp: deps.now(),
    start: change.at,
    end: new Date(change.at.getTime() + appointment.durationMinutes * 60_000),
    summary: `${appointment.typeName ?? "Appointment"} - ${firm}`,
    location: place,
    description: `Details and changes: ${portalLink(deps)}`,
    url: portalLink(deps),
    status: change.cancelled ? ICalEventStatus.CANCELLED : change.tentative ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    organizer: { name: firm, email: firmEmail },
    // Every contact of the account with notify is invited, not only whoever booked it.
    attendees: appointment.to.split(", ").map((email) => ({ email })),
  });
  return {
    filename: change.cancelled ? "cancelled-appointment.ics" : "appointment.ics",
    content: calendar.toString(),
    contentType: `text/calendar; charset=utf-8; method=${method}`,
  };
}

/**
 * `at`: the appointment's time when it changed, which the mail states even if it moves again;
 * `sequence`: its calendar entry's SEQUENCE then.
 */
export type AppointmentChangeJob = { appointmentId: string; change: AppointmentChange; at: string; sequence?: number };

/**
 * The client's email about a change: the time it was set to then, and the status, with the calendar
 * entry for a booked appointment. Only those: the title and description are free text, and the
 * address may be unverified (greeting() decides whether the name may appear). The details are in
 * the portal, behind the sign-in.
 */
export async function appointmentChangeMail(deps: AppDeps, job: AppointmentChangeJob): Promise<Outgoing | null> {
  const appointment = await appointmentForMail(deps, job.appointmentId);
  if (!appointment) return null;
  const firm = await firmName(deps);
  const at = new Date(job.at);
  const when = formatFirmTime(at, deps.config.firmTimeZone);
  const cancelled = job.change === "cancelled";
  const place = await placeOf(deps, appointment);
  const body = composeEmail({
    firmName: firm,
    heading: CHANGE_HEADINGS[job.change],
    paragraphs: [
      appointment.hello,
      cancelled
        ? `Your appointment on ${when} is cancelled. If you would like a new time, book one in the client portal or call us.`
        : job.change === "requested"
          ? `You asked for an appointment on ${when}. We will confirm it shortly; until then the time is held for you.`
          : `Your appointment is on ${when}.`,
    ],
    details: [
      ["Status", cancelled ? "Cancelled" : job.change === "requested" ? "Waiting for the firm's confirmation" : "Scheduled"],
      ...(appointment.typeName ? ([["Meeting", appointment.typeName]] as Array<[string, string]>) : []),
      ...(place && !cancelled ? ([["Where", place]] as Array<[string, string]>) : []),
    ],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  const entry = await calendarEntry(deps, job.appointmentId, appointment, {
    at,
    sequence: job.sequence ?? 0,
    cancelled,
    tentative: job.change === "requested",
  });
  return {
    message: { to: appointment.to, subject: `${CHANGE_HEADINGS[job.change]} - ${firm}`, ...body, ...(entry ? { attachments: [entry] } : {}) },
  };
}

/** To the firm: a client booked, moved or cancelled (self-booking). */
export type AppointmentFirmNoticeJob = { appointmentId: string; action: ClientAction; at: string; sequence: number };

/** The firm's email (site contact address, else FIRM_EMAIL) about what a client did with a booking. */
export async function appointmentFirmNoticeMail(deps: AppDeps, job: AppointmentFirmNoticeJob): Promise<Outgoing | null> {
  const appointment = await appointmentForMail(deps, job.appointmentId);
  if (!appointment) return null;
  const [firm, to] = await Promise.all([firmName(deps), firmContactEmail(deps)]);
  const at = new Date(job.at);
  const when = formatFirmTime(at, deps.config.firmTimeZone);
  const heading = FIRM_HEADINGS[job.action];
  const place = await placeOf(deps, appointment);
  const body = composeEmail({
    firmName: firm,
    heading,
    paragraphs: [
      job.action === "cancelled"
        ? `A client cancelled their appointment on ${when}; the time is free again.`
        : job.action === "rescheduled"
          ? `A client moved their appointment to ${when}.`
          : job.action === "requested"
            ? `A client asked for an appointment on ${when}. Approve it by setting its status to Scheduled in the admin portal, or cancel it.`
            : `A client booked an appointment on ${when}.`,
    ],
    details: [
      ["Client", appointment.userName],
      ["Email", appointment.email],
      ["Meeting", appointment.typeName ?? appointment.title],
      ...(place ? ([["Where", place]] as Array<[string, string]>) : []),
      ...(appointment.description ? ([["Notes", appointment.description]] as Array<[string, string]>) : []),
    ],
    action: { label: "Open the admin portal", url: new URL("/admin/dashboard?tab=appointments", deps.config.publicUrl).toString() },
  });
  const entry = await calendarEntry(deps, job.appointmentId, appointment, {
    at,
    sequence: job.sequence,
    cancelled: job.action === "cancelled",
    tentative: job.action === "requested",
  });
  return {
    message: {
      to,
      subject: `${heading}: ${appointment.typeName ? oneLine(appointment.typeName, 80) : "Appointment"}, ${when}`,
      replyTo: appointment.email,
      ...body,
      ...(entry ? { attachments: [entry] } : {}),
    },
  };
}

/** A day before `at`; nothing if the appointment no longer starts then. */
export type AppointmentReminderJob = { appointmentId: string; at: string };

/** The client's reminder a day before; nothing if the appointment was cancelled or moved since. */
export async function appointmentReminderMail(deps: AppDeps, job: AppointmentReminderJob): Promise<Outgoing | null> {
  const appointment = await appointmentForMail(deps, job.appointmentId);
  if (!appointment || appointment.status !== "scheduled" || appointment.appointmentDate.getTime() !== new Date(job.at).getTime()) return null;
  const firm = await firmName(deps);
  const when = formatFirmTime(appointment.appointmentDate, deps.config.firmTimeZone);
  const place = await placeOf(deps, appointment);
  const body = composeEmail({
    firmName: firm,
    heading: "A reminder of your appointment",
    paragraphs: [appointment.hello, `A reminder: your appointment is on ${when}. If you cannot make it, please let us know.`],
    details: [
      ...(appointment.typeName ? ([["Meeting", appointment.typeName]] as Array<[string, string]>) : []),
      ...(place ? ([["Where", place]] as Array<[string, string]>) : []),
    ],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: appointment.to, subject: `Reminder: your appointment - ${firm}`, ...body } };
}
