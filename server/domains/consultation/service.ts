import { TRPCError } from "@trpc/server";
import type { Context, FirmContext } from "../../trpc/context.ts";
import {
  findConsultationRequest,
  insertConsultationRequest,
  listConsultationRequests,
  reopenFailedConsultationEmail,
  setConsultationHandledAt,
} from "./queries.ts";
import type { ListPageInput } from "../admin/schemas.ts";
import { listPage } from "../list-page.ts";
import type { Success } from "../shared-schemas.ts";
import { type ConsultationRequest, type ConsultationRequestInput, PAST_DATE } from "./schemas.ts";
import { consultationChoices, serviceLabel, UNKNOWN_SERVICE } from "../site/schemas.ts";
import { siteServices } from "../site/service.ts";
import { addToInbox } from "../inbox/queries.ts";
import { createInvitation } from "../invitations/service.ts";
import type { InvitationItem } from "../invitations/schemas.ts";

const NOT_FAILED = "Only a notification whose every try failed can be resent";

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
  // The form's choices are the firm's (site content), so they are checked here against the list as it stands.
  const services = await siteServices(ctx);
  if (input.service && !consultationChoices(services).some((choice) => choice.value === input.service)) {
    throw new TRPCError({ code: "BAD_REQUEST", message: UNKNOWN_SERVICE });
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
      account_id: null,
      actor_id: null,
      subject_id: id,
      summary: { name: input.name, service: input.service ?? null, service_label: serviceLabel(services, input.service) },
      at: ctx.now(),
    });
    await ctx.jobs.send("email", { kind: "consultation-confirmation", consultationId: id }, { tx });
  });
  return { success: true };
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

/** The firm's list, each request's service in the words of the site's list. */
export async function consultationPage(ctx: Context, input: ListPageInput) {
  const [page, services] = await Promise.all([listPage(input, (w) => listConsultationRequests(ctx.db, w)), siteServices(ctx)]);
  return { ...page, items: page.items.map((item): ConsultationRequest => ({ ...item, service_label: serviceLabel(services, item.service) })) };
}

export async function markConsultationHandled(ctx: Context, input: { id: string; handled: boolean }): Promise<Success> {
  const found = await setConsultationHandledAt(ctx.db, input.id, input.handled ? ctx.now() : null);
  if (!found) throw new TRPCError({ code: "NOT_FOUND", message: "Consultation request not found" });
  return { success: true };
}

/**
 * A consultation request becomes an invited client in one step (issue 34): the invitation, and with
 * it the client's account, made with the request's name and email, as the Clients tab's invitation
 * makes them (same refusals: 409 for an address with a proven account or a pending invitation);
 * then the request is handled.
 */
export async function inviteConsultation(ctx: FirmContext, input: { id: string }): Promise<InvitationItem> {
  const request = await findConsultationRequest(ctx.db, input.id);
  if (!request) throw new TRPCError({ code: "NOT_FOUND", message: "Consultation request not found" });
  const invitation = await createInvitation(ctx, { name: request.name.trim().slice(0, 100), email: request.email });
  await setConsultationHandledAt(ctx.db, request.id, ctx.now());
  return invitation;
}
