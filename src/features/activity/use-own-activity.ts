import { trpc } from "@/lib/trpc.ts";

const RECENT_ACTIVITY_PAGE = 10;

/** The signed-in client's own trail, newest first; each "Show more" asks for the next older page. */
export function useOwnActivity() {
  return trpc.activity.list.useInfiniteQuery(
    { limit: RECENT_ACTIVITY_PAGE },
    { getNextPageParam: (page) => page.next_cursor ?? undefined, retry: false },
  );
}
