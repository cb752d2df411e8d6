import { useQueryClient } from "@tanstack/react-query";
import { getQueryKey } from "@trpc/react-query";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useAdminLogout() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return trpc.auth.logout.useMutation({
    onSuccess: async () => {
      // Leave first, so the dashboard does not react to its data going away.
      await navigate("/admin", { replace: true, state: { skipSessionCheck: true } });
      // Nothing of the admin's data stays in memory after logout.
      queryClient.removeQueries({ queryKey: getQueryKey(trpc.admin) });
      await utils.auth.session.invalidate();
      toast.success("Logged out successfully.");
    },
    onError: () => {
      toast.error("Logout failed. Please try again.");
    },
  });
}
