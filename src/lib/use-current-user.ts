import { useEffect } from "react";
import { followPersonLanguage } from "@/lib/i18n.ts";
import { trpc } from "@/lib/trpc.ts";

/**
 * The signed-in user, shared by the client portal and the admin portal (the public site asks with
 * `useSignedIn`, which needs no React Query).
 * `status` is "unknown" until the first check answers. It reads `auth.session`, which answers
 * null for visitors (rather than `auth.me`'s 401, which browsers log as an error); after login or
 * logout call `trpc.useUtils().auth.session.invalidate()`.
 */
export function useCurrentUser() {
  const query = trpc.auth.session.useQuery(undefined, { retry: false, staleTime: 60_000 });
  const user = query.data ?? null;
  useEffect(() => followPersonLanguage(user), [user]);

  return {
    user,
    status: query.isPending ? "unknown" : user ? "signed-in" : "signed-out",
    /** A failure of the check itself (server or network), for pages that want to say so. */
    error: query.error,
    refetch: query.refetch,
  } as const;
}
