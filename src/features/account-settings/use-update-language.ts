import { trpc } from "@/lib/trpc.ts";

/** Saves the person's language; the session check carries it, so the portal follows at once. */
export function useUpdateLanguage() {
  const utils = trpc.useUtils();
  return trpc.account.updateLanguage.useMutation({
    onSuccess: (user) => {
      utils.auth.session.setData(undefined, user);
      void utils.account.overview.invalidate();
    },
  });
}
