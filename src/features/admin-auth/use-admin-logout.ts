import { useNavigate } from "react-router";
import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useAdminLogout() {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  return trpc.auth.logout.useMutation({
    onSuccess: async () => {
      await navigate("/admin", { replace: true });
      utils.admin.invalidate();
      await utils.auth.session.invalidate();
      toast.success("Logged out successfully.");
    },
    onError: () => {
      toast.error("Logout failed. Please try again.");
    },
  });
}
