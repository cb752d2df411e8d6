import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";

/** Ends the session on the server, forgets every cached answer of this user and goes home. */
export function useLogout() {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  return trpc.auth.logout.useMutation({
    onSuccess: () => {
      // Nothing of this user's folders or documents may outlive the session in memory. The
      // public site content is kept and the session answer set, so the home page shows at once.
      // The signed-in pages leave first (the session answer is null, and the home page shows); the
      // cached answers are dropped once they are gone: a query still mounted when its answer is
      // dropped asks again, and would get the 401 of the session that just ended.
      utils.auth.session.setData(undefined, null);
      void navigate("/", { replace: true });
      toast.success("Logged out successfully.");
      setTimeout(() => {
        const siteContent = utils.site.content.getData();
        queryClient.removeQueries();
        if (siteContent) utils.site.content.setData(undefined, siteContent);
        utils.auth.session.setData(undefined, null);
      }, 0);
    },
    onError: (err) => {
      toast.error(errorDetail(err) ?? "Logout failed. Please try again.");
    },
  });
}
