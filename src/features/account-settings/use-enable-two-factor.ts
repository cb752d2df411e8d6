import { trpc } from "@/lib/trpc.ts";

export function useEnableTwoFactor() {
  const utils = trpc.useUtils();
  return trpc.account.enableTwoFactor.useMutation({ onSuccess: () => utils.account.overview.invalidate() });
}
