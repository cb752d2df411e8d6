import { trpc } from "@/lib/trpc.ts";

/** Client login; the session check is refetched so every page sees the signed-in user. */
export function useLogin() {
  const utils = trpc.useUtils();
  return trpc.auth.login.useMutation({ onSuccess: () => utils.auth.session.invalidate() });
}
