/*
 * The one place where the tRPC client and React Query are configured. Features import
 * `trpc` for hooks; `app/api-provider.tsx` creates the clients once with the factories below.
 */
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { httpBatchLink } from "@trpc/client";
import { createTRPCReact } from "@trpc/react-query";
import superjson from "superjson";
import type { AppRouter } from "@server/domains/_app.ts";
import { httpStatus } from "./api-error.ts";
import { endPortalSession } from "./session-ended.ts";

export const trpc = createTRPCReact<AppRouter>();

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: "/trpc",
        transformer: superjson,
        // The server refuses batches of more than 10 calls.
        maxItems: 10,
        fetch: (input, init) => fetch(input, { ...init, credentials: "include" }),
      }),
    ],
  });
}

const maxRetries = 2;

// Every call in one place: a 401 on a portal page means the session is gone (sign-in itself runs
// on the sign-in pages, where a 401 is a wrong password and is left to the form).
function onCallError(error: unknown): void {
  if (httpStatus(error) === 401) endPortalSession();
}

// Nearly every change is written to the activity trail, so after any change both trails are
// out of date; the features that change things need not know that the trail exists.
const ACTIVITY_QUERY_KEYS = [[["activity"]], [["admin", "activity", "list"]]];

export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: onCallError }),
    mutationCache: new MutationCache({
      onError: onCallError,
      // Not awaited: the change's own answer (its toast, its list) does not wait for the trail.
      // Signing in or out is left out: the pages that show a trail are going away.
      onSuccess: (_data, _variables, _context, mutation) => {
        const [path] = mutation.options.mutationKey ?? [];
        if (Array.isArray(path) && path[0] === "auth") return;
        for (const queryKey of ACTIVITY_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx answer will not change by asking again; network and 5xx faults may.
        retry: (failureCount, error) => {
          const status = httpStatus(error);
          if (status !== undefined && status >= 400 && status < 500) return false;
          return failureCount < maxRetries;
        },
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
