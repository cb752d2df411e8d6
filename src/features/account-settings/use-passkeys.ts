import { trpc } from "@/lib/trpc.ts";

export function usePasskeys() {
  return trpc.account.passkeys.useQuery();
}
