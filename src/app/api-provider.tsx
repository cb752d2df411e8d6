import type { ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createQueryClient, createTrpcClient, trpc } from "@/lib/trpc.ts";

// One cache for the whole document: every lazily loaded part that mounts a provider shares it, so
// a login in the landing page's dialog is known to the dashboard it navigates to.
const queryClient = createQueryClient();
const trpcClient = createTrpcClient();

export function ApiProvider({ children }: { children: ReactNode }) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
