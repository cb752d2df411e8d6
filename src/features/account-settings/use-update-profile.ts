import { trpc } from "@/lib/trpc.ts";

/** Saves the name; the session check and the overview show it at once. */
export function useUpdateProfile() {
  const utils = trpc.useUtils();
  return trpc.account.updateProfile.useMutation({
    onSuccess: (user) => {
      utils.auth.session.setData(undefined, user);
      void utils.account.overview.invalidate();
    },
  });
}
