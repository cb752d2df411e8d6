import { trpc } from "@/lib/trpc.ts";

/**
 * Saves one field. Updates of the same field run one after another (a mutation scope), so a
 * slow earlier save can never overwrite a later one. The field itself says "Updated hero.title" or why not.
 */
export function useUpdateSiteContent(section: string, key: string) {
  const utils = trpc.useUtils();
  return trpc.admin.siteContent.update.useMutation({
    scope: { id: `site-content:${section}.${key}` },
    onSettled: () => invalidateSiteContent(utils),
  });
}

/** Puts one field back to its built-in default. */
export function useResetSiteContent(section: string, key: string) {
  const utils = trpc.useUtils();
  return trpc.admin.siteContent.reset.useMutation({
    scope: { id: `site-content:${section}.${key}` },
    onSettled: () => invalidateSiteContent(utils),
  });
}

export function invalidateSiteContent(utils: ReturnType<typeof trpc.useUtils>) {
  return Promise.all([utils.admin.siteContent.editor.invalidate(), utils.admin.siteContent.get.invalidate(), utils.site.content.invalidate()]);
}
