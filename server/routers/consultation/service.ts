import { composeEmail, oneLine } from "../../mail/compose.ts";
import { deliverInBackground } from "../../mail/deliver.ts";
import type { Context } from "../../trpc/context.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import { insertConsultationRequest, markConsultationEmailSent } from "./queries.ts";
import { type ConsultationRequestInput, PREFERRED_TIME_OPTIONS, SERVICE_OPTIONS } from "./schemas.ts";

/**
 * Stored first, so nothing is lost; then emailed to the firm in the background with retries.
 * `email_sent_at` stays empty when every attempt failed (the log says so too), and the admin
 * list shows the request either way.
 */
export async function requestConsultation(ctx: Context, input: ConsultationRequestInput): Promise<{ success: true }> {
  await ctx.rateLimits.consumeConsultationRequest(ctx.ip);
  const now = ctx.now();
  const { id } = await insertConsultationRequest(ctx.db, {
    name: input.name,
    email: input.email,
    phone: input.phone,
    service: input.service ?? null,
    preferred_date: input.preferredDate ?? null,
    preferred_time: input.preferredTime ?? null,
    message: input.message,
    created_at: now,
  });

  const [firm, to] = await Promise.all([firmName(ctx), firmContactEmail(ctx)]);
  const service = SERVICE_OPTIONS.find((o) => o.value === input.service)?.label ?? "Not specified";
  const time = PREFERRED_TIME_OPTIONS.find((o) => o.value === input.preferredTime)?.label ?? "Not specified";
  const body = composeEmail({
    firmName: firm,
    heading: "New consultation request",
    paragraphs: [`${input.name} asked for a consultation through the website. We promised a reply within 24 hours.`],
    details: [
      ["Name", input.name],
      ["Email", input.email],
      ["Phone", input.phone],
      ["Service", service],
      ["Preferred date", input.preferredDate ?? "Not specified"],
      ["Preferred time", time],
      ["Message", input.message || "(none)"],
    ],
    footer: "Reply to this email to answer the client directly. The request is also listed in the admin portal under Consultations.",
  });
  void deliverInBackground(
    ctx.mailer,
    ctx.logger,
    { to, replyTo: input.email, subject: oneLine(`Consultation request from ${input.name} (${service})`), ...body },
    {
      what: { kind: "consultation-request", consultationId: id },
      onSent: () => markConsultationEmailSent(ctx.db, id, ctx.now()),
    },
  );
  return { success: true };
}
