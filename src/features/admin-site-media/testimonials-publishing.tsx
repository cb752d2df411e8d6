import { useState } from "react";
import { TriangleAlert } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { SettingCheckbox } from "./setting-checkbox.tsx";
import { useConfirmTestimonials, useSiteMedia, useUpdateSiteOptions } from "./use-site-media.ts";

/**
 * Whether the home page shows the testimonials, and the warning while what it shows are the
 * built-in samples: invented quotes under real-sounding names, which the firm must not publish as
 * its clients' words (docs/decisions.md, "The firm's own pictures and video").
 */
export function TestimonialsPublishing() {
  const media = useSiteMedia();
  const options = useUpdateSiteOptions();
  const confirm = useConfirmTestimonials();
  // The switch shows its new state while it is saved and the view is read again.
  const [saving, setSaving] = useState<boolean | null>(null);
  if (!media.data) return null;
  const { testimonialsAreSamples, testimonialsConfirmedAt } = media.data;
  const shown = saving ?? media.data.testimonials;
  const warn = shown && testimonialsAreSamples && testimonialsConfirmedAt === null;

  function setShown(next: boolean) {
    setSaving(next);
    options
      .mutateAsync({ testimonials: next })
      .then(() => toast.success(next ? "The testimonials are shown on the home page." : "The testimonials are hidden."))
      .catch((err: unknown) => toast.error(errorDetail(err) ?? "The setting could not be saved."))
      .finally(() => setSaving(null));
  }

  return (
    <section aria-labelledby="testimonials-publishing-heading" className="grid gap-4 rounded-xl border bg-card p-6">
      <h2 id="testimonials-publishing-heading" className="text-lg font-semibold">
        Testimonials on the home page
      </h2>
      {warn && (
        <div role="status" className="grid gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          <p className="flex items-start gap-2 font-semibold">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            The testimonials on your home page are samples
          </p>
          <p>
            They are invented quotes with made-up names, shipped to show the layout. Publishing them as your clients&apos; words can break the
            FTC&apos;s rule on fake reviews. Replace them below with real quotes your clients agreed to share, or hide the section.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" disabled={saving !== null} onClick={() => setShown(false)}>
              Hide testimonials
            </Button>
            <Button
              variant="ghost"
              size="sm"
              disabled={confirm.isPending}
              onClick={() => confirm.mutate(undefined, { onError: (err) => toast.error(errorDetail(err) ?? "Not saved.") })}
            >
              I may publish these quotes
            </Button>
          </div>
        </div>
      )}
      {testimonialsConfirmedAt && testimonialsAreSamples && (
        <p className="text-sm text-muted-foreground">You confirmed on {formatDate(testimonialsConfirmedAt)} that you may publish these quotes.</p>
      )}
      <SettingCheckbox
        title="Show the testimonials section"
        description={shown ? "The carousel shows the quotes listed below." : "Hidden: the home page shows no testimonials."}
        checked={shown}
        disabled={saving !== null}
        onChange={setShown}
      />
    </section>
  );
}
