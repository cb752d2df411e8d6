import { useState } from "react";
import { TriangleAlert } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { SettingCheckbox } from "./setting-checkbox.tsx";
import { useSiteMedia, useUpdateSiteOptions } from "./use-site-media.ts";

/**
 * Whether the home page shows the testimonials, and the warning while the list holds built-in
 * samples: invented quotes under real-sounding names, which the firm must not publish as its
 * clients' words. Each stays a sample until the firm edits, confirms or deletes it in the list
 * below (docs/site-content.md, Testimonials).
 */
export function TestimonialsPublishing() {
  const media = useSiteMedia();
  const options = useUpdateSiteOptions();
  // The switch shows its new state while it is saved and the view is read again.
  const [saving, setSaving] = useState<boolean | null>(null);
  if (!media.data) return null;
  const { testimonialsAreSamples, testimonialSamples } = media.data;
  const shown = saving ?? media.data.testimonials;
  const warn = shown && testimonialSamples > 0;

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
            {testimonialsAreSamples
              ? "The testimonials on your home page are samples"
              : `${testimonialSamples === 1 ? "1 sample testimonial is" : `${testimonialSamples} sample testimonials are`} still in your list`}
          </p>
          <p>
            Samples are invented quotes with made-up names, shipped to show the layout. Publishing them as your clients&apos; words can break the
            FTC&apos;s rule on fake reviews, so the home page{" "}
            {testimonialsAreSamples ? "marks each one as a sample" : "shows only your own quotes and leaves the samples out"}. Add real quotes your
            clients agreed to share, then edit, confirm or delete each sample below.
          </p>
          {testimonialsAreSamples && (
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" disabled={saving !== null} onClick={() => setShown(false)}>
                Hide testimonials
              </Button>
            </div>
          )}
        </div>
      )}
      <SettingCheckbox
        title="Show the testimonials section"
        description={
          !shown
            ? "Hidden: the home page shows no testimonials."
            : testimonialsAreSamples || testimonialSamples === 0
              ? "The carousel shows the quotes listed below."
              : "The carousel shows your own quotes listed below, not the samples."
        }
        checked={shown}
        disabled={saving !== null}
        onChange={setShown}
      />
    </section>
  );
}
