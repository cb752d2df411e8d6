import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";
import { invalidateSiteContent } from "./use-update-site-content.ts";

export function useInitSiteContent() {
  const utils = trpc.useUtils();
  return trpc.admin.siteContent.init.useMutation({
    onSuccess: async () => {
      toast.success("Site content initialized");
      await invalidateSiteContent(utils);
    },
    onError: () => {
      toast.error("Failed to initialize site content");
    },
  });
}
