// The emails about organizers, written when their jobs run: to the client when the firm sends one
// and when it reopens one (its comment stays in the portal: it may name what is in the answers),
// to the firm when a client submits. No answer is ever in a mail; each is checked again when it is
// written, so an organizer changed since gets none.
import { accountMailRecipients } from "../accounts/service.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import { findOrganizerForMail } from "./queries.ts";

/** "Friday, March 5, 2027": a day of the firm's calendar, as written. */
function formatDueDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "full" }).format(new Date(`${date}T00:00:00Z`));
}

function portalLink(deps: AppDeps): string {
  return new URL("/dashboard", deps.config.publicUrl).toString();
}

function dueDetails(due: string | null): Array<[string, string]> {
  return due ? [["Due", formatDueDate(due)]] : [];
}

/** To the client: the firm sent an organizer; nothing if it is no longer waiting for them. */
export type OrganizerSentJob = { organizerId: string };

export async function organizerSentMail(deps: AppDeps, job: OrganizerSentJob): Promise<Outgoing | null> {
  const organizer = await findOrganizerForMail(deps.db, job.organizerId);
  if (!organizer || organizer.status !== "sent") return null;
  const client = await accountMailRecipients(deps.db, organizer.account_id);
  if (!client) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Your tax organizer is ready",
    paragraphs: [
      client.hello,
      organizer.due_date
        ? `We have sent you an organizer in the client portal. Please answer it by ${formatDueDate(organizer.due_date)}.`
        : "We have sent you an organizer in the client portal. Please answer it when you can.",
      "Your answers are saved as you type: you can stop and come back, from any device, and submit when you are done.",
    ],
    details: [["Organizer", organizer.title], ...dueDetails(organizer.due_date)],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: client.to, subject: `Tax organizer: ${oneLine(organizer.title, 80)} - ${firm}`, ...body } };
}

/** To the client: the firm reopened their organizer with a comment; nothing if it is no longer reopened. */
export type OrganizerReopenedJob = { organizerId: string };

export async function organizerReopenedMail(deps: AppDeps, job: OrganizerReopenedJob): Promise<Outgoing | null> {
  const organizer = await findOrganizerForMail(deps.db, job.organizerId);
  if (!organizer || organizer.status !== "reopened") return null;
  const client = await accountMailRecipients(deps.db, organizer.account_id);
  if (!client) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "We need a little more on your organizer",
    paragraphs: [
      client.hello,
      "We looked at your answers and reopened the organizer. Sign in to read our note, complete what is missing and submit it again.",
    ],
    details: [["Organizer", organizer.title], ...dueDetails(organizer.due_date)],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: client.to, subject: `Reopened: ${oneLine(organizer.title, 80)} - ${firm}`, ...body } };
}

/** To the client, 2 days before the due date (jobs/organizer-reminders.ts); nothing once submitted or if the due date moved since. */
export type OrganizerReminderJob = { organizerId: string; dueDate: string };

export async function organizerReminderMail(deps: AppDeps, job: OrganizerReminderJob): Promise<Outgoing | null> {
  const organizer = await findOrganizerForMail(deps.db, job.organizerId);
  if (!organizer || (organizer.status !== "sent" && organizer.status !== "reopened") || organizer.due_date !== job.dueDate) return null;
  const client = await accountMailRecipients(deps.db, organizer.account_id);
  if (!client) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Your tax organizer is due soon",
    paragraphs: [
      client.hello,
      `A reminder: we asked for your organizer by ${formatDueDate(job.dueDate)}. What you have answered so far is saved; finish it and submit it in the client portal.`,
    ],
    details: [["Organizer", organizer.title], ...dueDetails(job.dueDate)],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: client.to, subject: `Reminder: ${oneLine(organizer.title, 80)} is due ${formatDueDate(job.dueDate)} - ${firm}`, ...body } };
}

/** To the firm (the site's contact address, else FIRM_EMAIL): a client submitted an organizer. */
export type OrganizerSubmittedJob = { organizerId: string };

export async function organizerSubmittedMail(deps: AppDeps, job: OrganizerSubmittedJob): Promise<Outgoing | null> {
  const organizer = await findOrganizerForMail(deps.db, job.organizerId);
  if (!organizer || organizer.status !== "submitted") return null;
  const [firm, to] = await Promise.all([firmName(deps), firmContactEmail(deps)]);
  const body = composeEmail({
    firmName: firm,
    heading: "A client submitted an organizer",
    paragraphs: [`${organizer.account_name} submitted the organizer "${organizer.title}".`],
    details: [
      ["Client", organizer.account_name],
      ["Organizer", organizer.title],
    ],
    action: { label: "Open the admin portal", url: new URL(`/admin/accounts/${organizer.account_id}`, deps.config.publicUrl).toString() },
  });
  return { message: { to, subject: `Submitted: ${oneLine(organizer.title, 80)} (${oneLine(organizer.account_name, 60)})`, ...body } };
}
