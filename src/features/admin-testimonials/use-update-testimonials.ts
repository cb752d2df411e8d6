import { toast } from "sonner";
import { trpc } from "@/lib/trpc.ts";

/** Stores the whole list (Save all, every delete and confirm); the samples warning and the first-day checklist follow it. */
export function useUpdateTestimonials() {
  const utils = trpc.useUtils();
  return trpc.admin.siteContent.updateTestimonials.useMutation({
    scope: { id: "testimonials" },
    onSuccess: async () => {
      toast.success("Testimonials updated successfully");
      await Promise.all([
        utils.admin.siteContent.editor.invalidate(),
        utils.admin.siteContent.get.invalidate(),
        utils.site.content.invalidate(),
        utils.admin.siteMedia.get.invalidate(),
        utils.admin.firm.setupChecklist.invalidate(),
      ]);
    },
    onError: () => {
      toast.error("Failed to update testimonials");
    },
  });
}
