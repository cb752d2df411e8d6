import { trpc } from "@/lib/trpc.ts";
import { uploadSiteMedia } from "./upload-site-media.ts";
import type { MediaSlot } from "@server/domains/site-media/schemas.ts";
import { useMutation } from "@tanstack/react-query";

export function useSiteMedia() {
  return trpc.admin.siteMedia.get.useQuery();
}

/** What an upload or removal changes: this view, the site content editor's values, the public site's data. */
function useInvalidateSiteMedia() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.admin.siteMedia.get.invalidate(),
      utils.siteMedia.public.invalidate(),
      utils.admin.siteContent.editor.invalidate(),
      utils.admin.siteContent.get.invalidate(),
      utils.site.content.invalidate(),
    ]);
}

/** One upload at a time per slot (a mutation scope), so a slow earlier one never lands after a later one. */
export function useUploadSiteMedia(slot: MediaSlot) {
  const invalidate = useInvalidateSiteMedia();
  return useMutation({
    scope: { id: `site-media:${slot}` },
    mutationFn: (file: File) => uploadSiteMedia(slot, file),
    onSettled: invalidate,
  });
}

export function useRemoveSiteMedia() {
  const invalidate = useInvalidateSiteMedia();
  return trpc.admin.siteMedia.remove.useMutation({ onSettled: invalidate });
}

/**
 * Turns a switch on or off. Each switch shows its new state while it is saved (the component's
 * own state), and the view is read again afterwards: two switches saved at once each answer a
 * view that may not have the other's change yet.
 */
export function useUpdateSiteOptions() {
  const utils = trpc.useUtils();
  return trpc.admin.siteMedia.updateOptions.useMutation({
    onSettled: () => Promise.all([utils.admin.siteMedia.get.invalidate(), utils.siteMedia.public.invalidate()]),
  });
}
