import { trpc } from "@/lib/trpc.ts";

export function useDisableTwoFactor() {
  const utils = trpc.useUtils();
  return trpc.account.disableTwoFactor.useMutation({ onSuccess: () => utils.account.overview.invalidate() });
}
