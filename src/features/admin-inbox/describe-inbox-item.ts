import type { InboxItemView } from "@server/domains/inbox/schemas.ts";
import { SERVICE_OPTIONS } from "@server/domains/consultation/schemas.ts";
import { formatDateTime } from "@/lib/format.ts";

/** What an Inbox line says: a headline and, where there is one, a second line of detail. */
export function describeInboxItem(item: InboxItemView): { headline: string; detail: string | null } {
  const client = item.client_label ?? "A client";
  const summary = item.summary;
  switch (item.kind) {
    case "upload": {
      const count = Number(summary.count ?? 1);
      const names = Array.isArray(summary.names) ? summary.names.map(String) : [];
      const more = count - names.length;
      return {
        headline: `${client} uploaded ${count === 1 ? "a document" : `${count} documents`}`,
        detail: names.join(", ") + (more > 0 ? ` and ${more} more` : ""),
      };
    }
    case "request_submitted":
      return { headline: `${client} submitted "${String(summary.title ?? "a request")}"`, detail: "Ready for your review" };
    case "consultation": {
      const service = SERVICE_OPTIONS.find((option) => option.value === summary.service)?.label ?? null;
      return { headline: `Consultation request from ${String(summary.name ?? "a visitor")}`, detail: service };
    }
    case "appointment_request":
      return {
        headline: `${client} asked for an appointment: ${String(summary.title ?? "")}`,
        detail: typeof summary.start === "string" ? formatDateTime(summary.start) : null,
      };
  }
}

/** Where opening an item leads: the client's page for uploads, else the tab that handles it. */
export function inboxItemTarget(item: InboxItemView): string {
  switch (item.kind) {
    case "upload":
      return item.client_id ? `/admin/users/${item.client_id}` : "/admin/dashboard?tab=documents";
    case "request_submitted":
      return "/admin/dashboard?tab=requests";
    case "consultation":
      return "/admin/dashboard?tab=consultations";
    case "appointment_request":
      return "/admin/dashboard?tab=appointments";
  }
}
