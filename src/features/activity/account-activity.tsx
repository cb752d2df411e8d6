import { LoadError } from "@/components/ui/load-error.tsx";
import { NextPageButton } from "@/components/ui/next-page-button.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { useMediaQuery } from "@/lib/use-media-query.ts";
import { ActivityCards, ActivityTable } from "./activity-tab.tsx";
import { useAdminActivity } from "./use-admin-activity.ts";

/** A client's record's trail: the Activity tab's view of this one account, newest first. */
export function AccountActivity({ accountId }: { accountId: string }) {
  const activity = useAdminActivity({ client_id: accountId });
  const isPhone = !useMediaQuery("(min-width: 640px)");
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby="account-activity-heading" className="grid min-w-0 gap-4">
      <div className="grid gap-1">
        <h2 id="account-activity-heading" className="text-xl font-semibold">
          Activity
        </h2>
        <p className="text-sm text-muted-foreground">Everything done on this account, by its people and by the firm.</p>
      </div>
      {activity.isError && items.length === 0 ? (
        <LoadError message="Failed to load activity." onRetry={() => void activity.refetch()} isRetrying={activity.isFetching} />
      ) : activity.isPending ? (
        <Spinner label="Loading activity…" className="w-full justify-center py-8" />
      ) : items.length === 0 ? (
        <p className="rounded-xl border bg-card px-4 py-10 text-center text-sm text-muted-foreground">No activity recorded yet.</p>
      ) : isPhone ? (
        <ActivityCards items={items} />
      ) : (
        <ActivityTable items={items} />
      )}
      <NextPageButton pages={activity} label="Load more" className="justify-self-center" />
    </section>
  );
}
