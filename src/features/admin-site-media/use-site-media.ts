import { trpc } from "@/lib/trpc.ts";
import { uploadSiteMedia } from "./upload-site-media.ts";
import type { MediaSlot } from "@server/domains/site-media/schemas.ts";
import { useMutation } from "@tanstack/react-query";

export function useSiteMedia() {
  return trpc.siteMedia.view.useQuery();
}

/** What an upload or removal changes: this view, the site content editor's values, the public site's data. */
function useInvalidateSiteMedia() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.siteMedia.view.invalidate(),
      utils.siteMedia.public.invalidate(),
      utils.admin.siteContentEditor.invalidate(),
      utils.admin.siteContent.invalidate(),
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
  return trpc.siteMedia.remove.useMutation({ onSettled: invalidate });
}

export function useUpdateSiteOptions() {
  const utils = trpc.useUtils();
  return trpc.siteMedia.updateOptions.useMutation({
    // The switch moves at once; the server's answer (or a refetch after a refusal) settles it.
    onMutate: (input) => utils.siteMedia.view.setData(undefined, (view) => view && { ...view, ...input }),
    onError: () => utils.siteMedia.view.invalidate(),
    onSuccess: (view) => utils.siteMedia.view.setData(undefined, view),
    onSettled: () => utils.siteMedia.public.invalidate(),
  });
}

export function useConfirmTestimonials() {
  const utils = trpc.useUtils();
  return trpc.siteMedia.confirmTestimonials.useMutation({ onSuccess: (view) => utils.siteMedia.view.setData(undefined, view) });
}
