import { useNavigate } from "react-router";
import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Signs in through the admin login; the new session replaces any other in the cookie. */
export function useAdminLogin() {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  return trpc.admin.login.useMutation({
    onSuccess: async () => {
      // Whatever was loaded under the previous session (if any) is not this admin's view.
      await utils.invalidate();
      toast.success("Admin login successful!");
      await navigate("/admin/dashboard");
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Admin login failed");
    },
  });
}
