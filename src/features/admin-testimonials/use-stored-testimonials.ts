import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import { ADMIN_SAMPLE_TESTIMONIALS } from "../../../server/routers/site/defaults.ts";
import { type Testimonial, testimonialSchema } from "../../../server/routers/site/schemas.ts";

/**
 * The stored testimonials (testimonials.data holds them as a JSON list), or the spec's two
 * samples when none are stored. `isStored` says which. Until the content has loaded, `isLoaded`
 * is false and nothing may be saved: the samples would overwrite a stored list nobody has seen.
 */
export function useStoredTestimonials() {
  const query = trpc.admin.siteContent.useQuery(undefined, { retry: false });
  useAdminLoadFailure(query);
  const raw = query.data?.testimonials?.data?.value;
  const stored = raw === undefined ? undefined : parseTestimonials(raw);
  return {
    isLoaded: query.data !== undefined,
    loadError: query.data === undefined ? query.error : null,
    isRetrying: query.isFetching,
    retry: () => void query.refetch(),
    isStored: stored !== undefined,
    testimonials: stored ?? ADMIN_SAMPLE_TESTIMONIALS,
  };
}

function parseTestimonials(raw: string): Testimonial[] | undefined {
  try {
    const parsed = testimonialSchema.array().safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
