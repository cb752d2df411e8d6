import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

export function useInitSiteContent() {
  const utils = trpc.useUtils();
  return trpc.admin.initSiteContent.useMutation({
    onSuccess: async () => {
      toast.success("Site content initialized");
      await Promise.all([utils.admin.siteContent.invalidate(), utils.site.content.invalidate()]);
    },
    onError: () => {
      toast.error("Failed to initialize site content");
    },
  });
}
