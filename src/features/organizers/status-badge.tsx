import { Badge } from "@/components/ui/badge.tsx";
import type { ClientOrganizer } from "@server/domains/organizers/schemas.ts";

/** Where an organizer stands, as the client reads it. */
export function StatusBadge({ status }: { status: ClientOrganizer["status"] }) {
  if (status === "submitted") return <Badge variant="muted">Submitted · waiting for your firm</Badge>;
  if (status === "reopened") return <Badge className="border-destructive/30 bg-destructive/10 text-destructive">Reopened by your firm</Badge>;
  return <Badge variant="success">To fill in</Badge>;
}
