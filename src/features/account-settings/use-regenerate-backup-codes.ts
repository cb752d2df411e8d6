import { trpc } from "@/lib/trpc.ts";

export function useRegenerateBackupCodes() {
  const utils = trpc.useUtils();
  return trpc.account.regenerateBackupCodes.useMutation({ onSuccess: () => utils.account.overview.invalidate() });
}
