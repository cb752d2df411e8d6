import { trpc } from "@/lib/trpc.ts";

export function useDeletePasskey() {
  const utils = trpc.useUtils();
  return trpc.account.deletePasskey.useMutation({ onSuccess: () => utils.account.passkeys.invalidate() });
}
