import { useQueryClient } from "@tanstack/react-query";
import { trpc } from "@/lib/trpc.ts";

/** Deletes the account; nothing of it stays in memory afterwards. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  return trpc.account.deleteAccount.useMutation({
    onSuccess: () => {
      queryClient.removeQueries();
      utils.auth.session.setData(undefined, null);
    },
  });
}
