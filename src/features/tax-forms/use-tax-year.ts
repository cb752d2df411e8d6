import { trpc } from "@/lib/trpc.ts";

/** The year the firm set for its Tax Forms tab (2024 until it changes it). */
export function useTaxYear() {
  return trpc.firm.taxYear.useQuery(undefined, { staleTime: 5 * 60_000 });
}
