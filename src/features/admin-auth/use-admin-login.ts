import { useQueryClient } from "@tanstack/react-query";
import { getQueryKey } from "@trpc/react-query";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Signs in through the admin login; the new session replaces any other in the cookie. */
export function useAdminLogin(returnTo: string) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return trpc.admin.login.useMutation({
    onSuccess: async () => {
      // Admin data (or refusals) cached under a previous session are not this session's answers.
      queryClient.removeQueries({ queryKey: getQueryKey(trpc.admin) });
      await utils.auth.session.invalidate();
      toast.success("Admin login successful!");
      await navigate(returnTo);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Admin login failed");
    },
  });
}
