import { ChevronRight, ListTodo } from "lucide-react";
import { DashboardItem, DashboardItemsCard } from "@/components/dashboard-items-card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { formatCalendarDate, formatDate } from "@/lib/format.ts";
import type { ClientOrganizerListItem } from "@server/domains/organizers/schemas.ts";
import { StatusBadge } from "./status-badge.tsx";
import { useOwnOrganizers } from "./use-organizers.ts";

const waiting = (o: ClientOrganizerListItem) => o.status === "sent" || o.status === "reopened";

/**
 * The firm's organizers on the dashboard, beside its requests: the ones waiting for the client
 * first, each with how far it is and a link to fill it in. Nothing shows while there are none.
 */
export function OrganizersCard() {
  const organizers = useOwnOrganizers();
  if (organizers.isPending) return null;
  if (organizers.isError) {
    return <LoadError message="Failed to load your organizers" onRetry={() => void organizers.refetch()} isRetrying={organizers.isFetching} />;
  }
  if (organizers.data.length === 0) return null;
  const list = [...organizers.data].sort((a, b) => Number(waiting(b)) - Number(waiting(a)));
  const open = list.filter(waiting).length;

  return (
    <DashboardItemsCard
      headingId="organizers-heading"
      icon={ListTodo}
      title="Organizers"
      description={
        open > 0
          ? `Your firm is waiting for ${open === 1 ? "one organizer" : `${open} organizers`}: answer the questions, your answers save as you type.`
          : "Nothing is waiting for you right now."
      }
      listLabel="Your organizers"
    >
      {list.map((organizer) => (
        <DashboardItem
          key={organizer.id}
          to={`/organizers/${organizer.id}`}
          title={organizer.title}
          badge={<StatusBadge status={organizer.status} />}
        >
          <span className="text-sm text-muted-foreground">
            {organizer.status === "submitted" && organizer.submitted_at
              ? `Submitted on ${formatDate(organizer.submitted_at)}`
              : organizer.due_date
                ? `Due ${formatCalendarDate(organizer.due_date)}`
                : "No due date"}
            {` · ${organizer.answered} of ${organizer.questions} answered`}
          </span>
          {waiting(organizer) && (
            <span className="flex items-center gap-3">
              <Progress
                value={organizer.questions === 0 ? 0 : (organizer.answered / organizer.questions) * 100}
                className="flex-1"
                aria-hidden="true"
              />
              <span className="flex shrink-0 items-center text-sm font-medium text-accent-soft-foreground">
                {organizer.answered === 0 ? "Start" : "Continue"}
                <ChevronRight aria-hidden="true" className="size-4" />
              </span>
            </span>
          )}
        </DashboardItem>
      ))}
    </DashboardItemsCard>
  );
}
