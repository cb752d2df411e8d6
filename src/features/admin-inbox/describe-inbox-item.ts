import type { InboxItemView } from "@server/domains/inbox/schemas.ts";
import { formatDateTimeWithZone } from "@/lib/format.ts";

/**
 * What an Inbox line says: a headline naming the person who acted by their name (never their login),
 * the account it is about when that is not simply the person's own name, and a line of detail.
 */
export function describeInboxItem(item: InboxItemView): { headline: string; account: string | null; detail: string | null } {
  const person = item.actor_name ?? item.client_label ?? "A client";
  const account = item.client_label && item.client_label !== person ? item.client_label : null;
  const summary = item.summary;
  const title = String(summary.title ?? "");
  const start = typeof summary.start === "string" ? formatDateTimeWithZone(summary.start) : null;
  switch (item.kind) {
    case "upload": {
      const count = Number(summary.count ?? 1);
      const names = Array.isArray(summary.names) ? summary.names.map(String) : [];
      const more = count - names.length;
      return {
        headline: `${person} uploaded ${count === 1 ? "a file" : `${count} files`}`,
        account,
        detail: names.join(", ") + (more > 0 ? ` and ${more} more` : ""),
      };
    }
    case "message": {
      const count = Number(summary.count ?? 1);
      const attachments = Number(summary.attachments ?? 0);
      const text = String(summary.text ?? "");
      return {
        headline: count === 1 ? `${person} sent a message` : `${person} sent ${count} messages`,
        account,
        detail: text || (attachments > 0 ? `${attachments === 1 ? "An attachment" : `${attachments} attachments`}` : null),
      };
    }
    case "request_submitted": {
      // The checklist's items still needed when the client submitted it anyway (issue 48).
      const missing = Array.isArray(summary.missing) ? summary.missing.map(String) : [];
      return {
        headline: `${person} submitted "${String(summary.title ?? "a request")}"`,
        account,
        detail:
          missing.length > 0
            ? `Submitted without ${missing.length === 1 ? "1 item" : `${missing.length} items`}: ${missing.join(", ")}`
            : "Ready for your review",
      };
    }
    case "organizer_submitted":
      return { headline: `${person} submitted the organizer "${String(summary.title ?? "an organizer")}"`, account, detail: "Ready for your review" };
    case "consultation": {
      // The service as the site named it when the request arrived (an item of an earlier release has only its id).
      const service =
        typeof summary.service_label === "string" ? summary.service_label : typeof summary.service === "string" ? summary.service : null;
      return { headline: `Consultation request from ${String(summary.name ?? "a visitor")}`, account: null, detail: service };
    }
    case "appointment_request":
      return { headline: `${person} asked for an appointment: ${title}`, account, detail: start };
    case "appointment_booked":
      return { headline: `${person} booked ${title}`, account, detail: start };
    case "appointment_rescheduled": {
      const before = typeof summary.previous_start === "string" ? formatDateTimeWithZone(summary.previous_start) : null;
      return { headline: `${person} moved ${title}`, account, detail: before && start ? `${before} → ${start}` : start };
    }
    case "appointment_cancelled":
      return { headline: `${person} cancelled ${title}`, account, detail: start };
    case "signature_viewed":
      return { headline: `${person} opened "${title}" for signature`, account, detail: "Not signed yet" };
    case "signature_signed":
      return { headline: `${person} signed "${title}"`, account, detail: "Waiting for the other signers" };
    case "signature_declined":
      return { headline: `${person} declined to sign "${title}"`, account, detail: typeof summary.reason === "string" ? summary.reason : null };
    case "signature_completed":
      return { headline: `"${title}" is signed by everyone`, account, detail: "The sealed PDF is in Signed documents" };
  }
}

/** The account page's sections an Inbox item can land on (the page reads `?section=`). */
export type AccountSection = "documents" | "messages" | "requests" | "signatures" | "appointments" | "activity" | "notes";

const SECTION_OF: Record<InboxItemView["kind"], AccountSection | null> = {
  upload: "documents",
  message: "messages",
  request_submitted: "requests",
  // Until the account page has an organizers section (issue 36's UI), the requests one is the nearest.
  organizer_submitted: "requests",
  appointment_request: "appointments",
  appointment_booked: "appointments",
  appointment_rescheduled: "appointments",
  appointment_cancelled: "appointments",
  // The account page has no signatures section yet: the original and the sealed PDF are among its documents.
  signature_viewed: "signatures",
  signature_signed: "signatures",
  signature_declined: "signatures",
  signature_completed: "signatures",
  consultation: null,
};

/**
 * Where opening an item lands: the account page at the section the item is about (with the thing
 * itself named, `&request=`, `&appointment=` or `&signature_request=`, for the page to point at or open), or the Consultations tab
 * for a visitor's request, which has no account yet.
 */
export function inboxItemTarget(item: InboxItemView): string {
  const section = SECTION_OF[item.kind];
  if (!section || !item.client_id) return `/admin/dashboard?tab=consultations&consultation=${encodeURIComponent(item.subject_id)}`;
  const params = new URLSearchParams({ section });
  if (item.kind === "request_submitted") params.set("request", item.subject_id);
  if (section === "appointments") params.set("appointment", item.subject_id);
  if (item.kind.startsWith("signature_")) params.set("signature_request", item.subject_id);
  return `/admin/accounts/${encodeURIComponent(item.client_id)}?${params.toString()}`;
}
