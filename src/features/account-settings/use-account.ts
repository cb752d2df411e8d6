import { trpc } from "@/lib/trpc.ts";

/** The account's security overview: password, two-factor sign-in, an email change waiting for its link. */
export function useAccount() {
  return trpc.account.overview.useQuery();
}
