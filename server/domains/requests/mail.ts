// The emails about document requests, written when their jobs run: the client's when the firm asks
// (title, due date, a portal link), the client's reminders 3 days before and on the due date, and
// the firm's when a client submits. The client's mail holds only what the firm wrote, never a
// document; a reminder is checked again when it is written, so a request submitted, closed or
// given another due date since gets none.
import { accountMailRecipients } from "../accounts/service.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { documentNamesInEmails } from "../documents/upload-notices.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import { findRequestForMail, listNeededItemTitles, listRequestDocumentNames, listRequestItemTitles } from "./queries.ts";

type ReminderKind = "early" | "due";

/** "Friday, March 5, 2027": a day of the firm's calendar, as written. */
function formatDueDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "full" }).format(new Date(`${date}T00:00:00Z`));
}

function portalLink(deps: AppDeps): string {
  return new URL("/dashboard", deps.config.publicUrl).toString();
}

/** To the client: the firm asks for documents. */
export type RequestCreatedJob = { requestId: string };

/** To the client: the firm asks for documents. */
export async function requestCreatedMail(deps: AppDeps, job: RequestCreatedJob): Promise<Outgoing | null> {
  const request = await findRequestForMail(deps.db, job.requestId);
  if (!request || request.status !== "open") return null;
  const client = await accountMailRecipients(deps.db, request.account_id);
  if (!client) return null;
  const [firm, items] = await Promise.all([firmName(deps), listRequestItemTitles(deps.db, job.requestId)]);
  const body = composeEmail({
    firmName: firm,
    heading: "We need some documents from you",
    paragraphs: [
      client.hello,
      request.due_date
        ? `We have asked you for documents in the client portal. Please upload them by ${formatDueDate(request.due_date)}.`
        : "We have asked you for documents in the client portal. Please upload them when you can.",
      "Sign in to see what we need, upload the files against the request and mark it submitted.",
    ],
    details: [
      ["Request", request.title],
      ...(request.due_date ? ([["Due", formatDueDate(request.due_date)]] as Array<[string, string]>) : []),
      // The checklist's titles are what the firm wrote, like the request's title.
      ...(items.length > 0 ? ([["What we need", items.map((item) => item.title).join("\n")]] as Array<[string, string]>) : []),
    ],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: client.to, subject: `Document request: ${oneLine(request.title, 80)} - ${firm}`, ...body } };
}

/** To the client, before or on `dueDate`; nothing if the request is no longer open or due then. */
export type RequestReminderJob = { requestId: string; dueDate: string; reminder: ReminderKind };

/** To the client, 3 days before the due date or on it: only while the request is still open and due then. */
export async function requestReminderMail(deps: AppDeps, job: RequestReminderJob): Promise<Outgoing | null> {
  const request = await findRequestForMail(deps.db, job.requestId);
  if (!request || request.status !== "open" || request.due_date !== job.dueDate) return null;
  const client = await accountMailRecipients(deps.db, request.account_id);
  if (!client) return null;
  const firm = await firmName(deps);
  const due = formatDueDate(job.dueDate);
  const heading = job.reminder === "due" ? "Your documents are due today" : `Your documents are due on ${due}`;
  const body = composeEmail({
    firmName: firm,
    heading,
    paragraphs: [
      client.hello,
      job.reminder === "due"
        ? "A reminder: the documents we asked for are due today. Please upload them in the client portal and mark the request submitted."
        : `A reminder: the documents we asked for are due on ${due}. Please upload them in the client portal and mark the request submitted.`,
    ],
    details: [
      ["Request", request.title],
      ["Due", due],
    ],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: client.to, subject: `Reminder: ${oneLine(request.title, 80)} - ${firm}`, ...body } };
}

/** To the firm: a client submitted a request. */
export type RequestSubmittedJob = { requestId: string };

/** To the firm (the site's contact address, else FIRM_EMAIL): a client submitted a request, with the names of the files attached. */
export async function requestSubmittedMail(deps: AppDeps, job: RequestSubmittedJob): Promise<Outgoing | null> {
  const request = await findRequestForMail(deps.db, job.requestId);
  if (!request) return null;
  const [firm, to, namesShown, documents, missing] = await Promise.all([
    firmName(deps),
    firmContactEmail(deps),
    documentNamesInEmails(deps.db),
    listRequestDocumentNames(deps.db, job.requestId),
    listNeededItemTitles(deps.db, job.requestId),
  ]);
  const client = request.username ?? request.email;
  const body = composeEmail({
    firmName: firm,
    heading: "A client submitted a document request",
    paragraphs: [
      `${request.name} (${client}) marked the request "${request.title}" as submitted.`,
      ...(missing.length > 0 ? [`They submitted it without ${missing.length === 1 ? "1 item" : `${missing.length} items`} of its checklist.`] : []),
    ],
    details: [
      ["Client", `${request.name} (${request.email})`],
      ["Request", request.title],
      // The firm's "Include document names in emails" setting holds here too.
      namesShown
        ? [`Documents (${documents.length})`, documents.map((d) => d.original_filename).join("\n")]
        : ["Documents", String(documents.length)],
      // Item titles are the firm's own words (never the client's), so they are named whatever that setting says.
      ...(missing.length > 0 ? [[`Still needed (${missing.length})`, missing.join("\n")] as [string, string]] : []),
    ],
    action: { label: "Open the admin portal", url: new URL("/admin/dashboard?tab=requests", deps.config.publicUrl).toString() },
  });
  return { message: { to, subject: `Submitted: ${oneLine(request.title, 80)} (${oneLine(client, 60)})`, replyTo: request.email, ...body } };
}

/** To the client: the firm reopened a request (its note is read in the portal); nothing if it is no longer open. */
export type RequestReopenedJob = { requestId: string };

/**
 * To the client: the firm reopened a request, usually because something is missing. The firm's
 * note stays in the portal (it may name what is in the documents), the mail only says to look.
 */
export async function requestReopenedMail(deps: AppDeps, job: RequestReopenedJob): Promise<Outgoing | null> {
  const request = await findRequestForMail(deps.db, job.requestId);
  if (!request || request.status !== "open") return null;
  const client = await accountMailRecipients(deps.db, request.account_id);
  if (!client) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "We need a little more for your request",
    paragraphs: [
      client.hello,
      "We looked at what you sent and reopened the request. Sign in to read our note, upload what is missing and mark it submitted again.",
    ],
    details: [["Request", request.title], ...(request.due_date ? ([["Due", formatDueDate(request.due_date)]] as Array<[string, string]>) : [])],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: client.to, subject: `Reopened: ${oneLine(request.title, 80)} - ${firm}`, ...body } };
}

/** To the client: the firm reopened one item of a request's checklist; nothing if the item is done again or the request closed. */
export type RequestItemReopenedJob = { requestId: string; itemId: string };

/** To the client: an item of their checklist needs more (the firm reopened it). */
export async function requestItemReopenedMail(deps: AppDeps, job: RequestItemReopenedJob): Promise<Outgoing | null> {
  const request = await findRequestForMail(deps.db, job.requestId);
  if (!request || request.status === "done") return null;
  const item = (await listRequestItemTitles(deps.db, job.requestId)).find((row) => row.id === job.itemId);
  if (!item || item.status !== "open") return null;
  const client = await accountMailRecipients(deps.db, request.account_id);
  if (!client) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "We need a little more for your request",
    paragraphs: [client.hello, `We reopened "${oneLine(item.title, 200)}" on your request. Sign in to upload what is missing for it.`],
    details: [
      ["Request", request.title],
      ["Item", item.title],
    ],
    action: { label: "Open the client portal", url: portalLink(deps) },
  });
  return { message: { to: client.to, subject: `Reopened: ${oneLine(item.title, 80)} - ${firm}`, ...body } };
}
