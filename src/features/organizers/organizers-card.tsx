import { ChevronRight, ListTodo } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
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
    <Card aria-labelledby="organizers-heading" role="region" className="min-w-0 border-accent/30">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="organizers-heading" className="flex items-center gap-2">
            <ListTodo aria-hidden="true" className="size-5 text-accent" />
            Organizers
          </h2>
        </CardTitle>
        <CardDescription>
          {open > 0
            ? `Your firm is waiting for ${open === 1 ? "one organizer" : `${open} organizers`}: answer the questions, your answers save as you type.`
            : "Nothing is waiting for you right now."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-label="Your organizers" className="grid gap-3">
          {list.map((organizer) => (
            <li key={organizer.id}>
              <Link
                to={`/organizers/${organizer.id}`}
                className="grid min-w-0 gap-2 rounded-lg border bg-card p-4 transition-colors hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <span className="flex flex-wrap items-start justify-between gap-2">
                  <span className="min-w-0 font-medium break-words [overflow-wrap:anywhere]">{organizer.title}</span>
                  <StatusBadge status={organizer.status} />
                </span>
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
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
