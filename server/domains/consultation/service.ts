import { TRPCError } from "@trpc/server";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { Outgoing } from "../../jobs/email.ts";
import type { AppDeps, Context } from "../../trpc/context.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import {
  findConsultationRequest,
  insertConsultationRequest,
  markConsultationEmailFailed,
  markConsultationEmailSent,
  reopenFailedConsultationEmail,
} from "./queries.ts";
import { type ConsultationRequestInput, PAST_DATE, PREFERRED_TIME_OPTIONS, SERVICE_OPTIONS } from "./schemas.ts";
import { addToInbox } from "../inbox/record.ts";

export const NOT_FAILED = "Only a notification whose every try failed can be resent";

/**
 * The request and the two emails it causes (to the firm, and a confirmation to the visitor) are
 * stored in one transaction: no request without its mail, no mail about a request never stored.
 * The firm's email is retried for a day or more; `email_sent_at` is set when it went out, and
 * `email_failed_at` if every try failed (an admin can resend it). The admin list shows the request either way.
 */
export async function requestConsultation(ctx: Context, input: ConsultationRequestInput): Promise<{ success: true }> {
  if (input.preferredDate && input.preferredDate < earliestDateAnywhere(ctx.now())) {
    throw new TRPCError({ code: "BAD_REQUEST", message: PAST_DATE });
  }
  await ctx.rateLimits.consumeConsultationRequest(ctx.ip);
  await ctx.db.transaction().execute(async (tx) => {
    const { id } = await insertConsultationRequest(tx, {
      name: input.name,
      email: input.email,
      phone: input.phone,
      service: input.service ?? null,
      preferred_date: input.preferredDate ?? null,
      preferred_time: input.preferredTime ?? null,
      message: input.message,
      created_at: ctx.now(),
    });
    await ctx.jobs.send("email", { kind: "consultation-notification", consultationId: id }, { tx });
    await addToInbox(tx, {
      kind: "consultation",
      client_id: null,
      subject_id: id,
      summary: { name: input.name, service: input.service ?? null },
      at: ctx.now(),
    });
    await ctx.jobs.send("email", { kind: "consultation-confirmation", consultationId: id }, { tx });
  });
  return { success: true };
}

/** The firm's email about a request; nothing once it went out (a resend that crossed a late success). */
export async function consultationNotificationMail(deps: AppDeps, job: { consultationId: string }): Promise<Outgoing | null> {
  const request = await findConsultationRequest(deps.db, job.consultationId);
  if (!request || request.email_sent_at) return null;
  const [firm, to] = await Promise.all([firmName(deps), firmContactEmail(deps)]);
  const service = SERVICE_OPTIONS.find((o) => o.value === request.service)?.label ?? "Not specified";
  const time = PREFERRED_TIME_OPTIONS.find((o) => o.value === request.preferredTime)?.label ?? "Not specified";
  const body = composeEmail({
    firmName: firm,
    heading: "New consultation request",
    paragraphs: [`${request.name} asked for a consultation through the website. We promised a reply within 24 hours.`],
    details: [
      ["Name", request.name],
      ["Email", request.email],
      ["Phone", request.phone],
      ["Service", service],
      ["Preferred date", request.preferredDate ?? "Not specified"],
      ["Preferred time", time],
      ["Message", request.message || "(none)"],
    ],
    footer: "Reply to this email to answer the client directly. The request is also listed in the admin portal under Consultations.",
  });
  return {
    message: { to, replyTo: request.email, subject: oneLine(`Consultation request from ${request.name} (${service})`), ...body },
    onSent: (tx, at) => markConsultationEmailSent(tx, request.id, at),
  };
}

export async function consultationNotificationGaveUp(deps: AppDeps, job: { consultationId: string }): Promise<void> {
  await markConsultationEmailFailed(deps.db, job.consultationId, deps.now());
}

/** An admin sends a failed notification again: queued with the row's change, in one transaction. */
export async function resendConsultationNotification(ctx: Context, input: { id: string }): Promise<{ success: true }> {
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await reopenFailedConsultationEmail(tx, input.id))) {
      const exists = await findConsultationRequest(tx, input.id);
      if (!exists) throw new TRPCError({ code: "NOT_FOUND", message: "Consultation request not found" });
      throw new TRPCError({ code: "CONFLICT", message: NOT_FAILED });
    }
    await ctx.jobs.send("email", { kind: "consultation-notification", consultationId: input.id }, { tx });
  });
  return { success: true };
}

/**
 * Today's date where the calendar is furthest behind (UTC-12): a date before it has passed for
 * every visitor, wherever they are, so nobody is refused the day that is today for them.
 */
function earliestDateAnywhere(now: Date): string {
  return new Date(now.getTime() - 12 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Tells the visitor the request arrived. Nobody has shown the address is theirs, so the mail holds
 * nothing they typed (not even their name): only the firm's own words. The consultation limiter
 * counted the request before, so this sends no more mail than requests are allowed.
 */
export async function consultationConfirmationMail(deps: AppDeps, job: { consultationId: string }): Promise<Outgoing | null> {
  const request = await findConsultationRequest(deps.db, job.consultationId);
  if (!request) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "We received your consultation request",
    paragraphs: ["Hello,", "Thank you for contacting us. We received your consultation request and will reply within 24 hours."],
    footer: "If you did not send this request, ignore this email: someone may have typed your address by mistake.",
  });
  return { message: { to: request.email, subject: `Your consultation request to ${firm}`, ...body } };
}
