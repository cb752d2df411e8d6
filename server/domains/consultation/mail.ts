import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { serviceLabel } from "../site/schemas.ts";
import { firmContactEmail, firmName, siteServices } from "../site/service.ts";
import { findConsultationRequest, markConsultationEmailFailed, markConsultationEmailSent } from "./queries.ts";
import { PREFERRED_TIME_OPTIONS } from "./schemas.ts";

export type ConsultationNotificationJob = { consultationId: string };

/** The firm's email about a request; nothing once it went out (a resend that crossed a late success). */
export async function consultationNotificationMail(deps: AppDeps, job: ConsultationNotificationJob): Promise<Outgoing | null> {
  const request = await findConsultationRequest(deps.db, job.consultationId);
  if (!request || request.email_sent_at) return null;
  const [firm, to, services] = await Promise.all([firmName(deps), firmContactEmail(deps), siteServices(deps)]);
  const service = serviceLabel(services, request.service) ?? request.service ?? "Not specified";
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

export async function consultationNotificationGaveUp(deps: AppDeps, job: ConsultationNotificationJob): Promise<void> {
  await markConsultationEmailFailed(deps.db, job.consultationId, deps.now());
}

export type ConsultationConfirmationJob = { consultationId: string };

/**
 * Tells the visitor the request arrived. Nobody has shown the address is theirs, so the mail holds
 * nothing they typed (not even their name): only the firm's own words. The consultation limiter
 * counted the request before, so this sends no more mail than requests are allowed.
 */
export async function consultationConfirmationMail(deps: AppDeps, job: ConsultationConfirmationJob): Promise<Outgoing | null> {
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
