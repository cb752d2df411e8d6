import { History } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { describeActivity } from "./describe-activity.ts";
import { NextPageButton } from "@/components/ui/next-page-button.tsx";
import { formatRelativeTime } from "@/lib/relative-time.ts";
import { useOwnActivity } from "./use-own-activity.ts";

/** The client's own trail on the dashboard: what they did, and what the firm did with their documents. */
export function RecentActivityCard() {
  const activity = useOwnActivity();
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card aria-labelledby="recent-activity-heading" role="region" className="min-w-0">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="recent-activity-heading" className="flex items-center gap-2">
            <History aria-hidden="true" className="size-5 text-muted-foreground" />
            Recent activity
          </h2>
        </CardTitle>
        <CardDescription>Sign-ins and changes on your account, including when your firm opens your documents.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {activity.isPending ? (
          <Spinner label="Loading activity…" className="w-full justify-center py-4" />
        ) : activity.isError && items.length === 0 ? (
          <LoadError message="Failed to load your activity" onRetry={() => void activity.refetch()} isRetrying={activity.isFetching} />
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No activity yet.</p>
        ) : (
          <>
            <ol aria-label="Recent activity" className="grid divide-y">
              {items.map((item) => (
                <li key={item.id} className="flex min-w-0 flex-col gap-0.5 py-2 first:pt-0 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
                  <span className="min-w-0 text-sm break-words [overflow-wrap:anywhere]">{describeActivity(item, "client")}</span>
                  <time
                    dateTime={item.occurred_at.toISOString()}
                    title={formatDateTime(item.occurred_at)}
                    className="shrink-0 text-xs whitespace-nowrap text-muted-foreground tabular-nums"
                  >
                    {formatRelativeTime(item.occurred_at)}
                  </time>
                </li>
              ))}
            </ol>
            <NextPageButton pages={activity} label="Show more" className="justify-self-start" />
          </>
        )}
      </CardContent>
    </Card>
  );
}
