import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

/**
 * Saves one field. Updates of the same field run one after another (a mutation scope), so a
 * slow earlier save can never overwrite a later one.
 */
export function useUpdateSiteContent(section: string, key: string) {
  const utils = trpc.useUtils();
  const name = `${section}.${key}`;
  return trpc.admin.updateSiteContent.useMutation({
    scope: { id: `site-content:${name}` },
    onSuccess: async () => {
      toast.success(`Updated ${name}`, { id: `site-content:${name}` });
      await Promise.all([utils.admin.siteContent.invalidate(), utils.site.content.invalidate()]);
    },
    onError: () => {
      toast.error(`Failed to update ${name}`, { id: `site-content:${name}` });
    },
  });
}
