import { Badge } from "@/components/ui/badge.tsx";
import type { OrganizerStatus } from "@server/domains/organizers/schemas.ts";

export const STATUS_LABELS: Record<OrganizerStatus, string> = { draft: "Draft", sent: "Sent", submitted: "Submitted", reopened: "Reopened" };

export function OrganizerStatusBadge({ status }: { status: OrganizerStatus }) {
  return <Badge variant={status === "submitted" ? "success" : status === "draft" ? "muted" : "secondary"}>{STATUS_LABELS[status]}</Badge>;
}
