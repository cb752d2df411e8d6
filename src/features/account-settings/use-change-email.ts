import { trpc } from "@/lib/trpc.ts";

/** Asks for a new address; the overview then shows it as waiting for its link. */
export function useChangeEmail() {
  const utils = trpc.useUtils();
  return trpc.account.changeEmail.useMutation({ onSuccess: () => utils.account.overview.invalidate() });
}
