import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";
import { type Testimonial, testimonialSchema } from "@server/domains/site/schemas.ts";

/**
 * The testimonials the carousel shows now: the stored list, or the built-in ones while none is
 * stored (`isDefault`). Until they have loaded, `isLoaded` is false and nothing may be saved:
 * an empty or stale list would overwrite one nobody has seen.
 */
export function useStoredTestimonials() {
  const query = trpc.admin.siteContent.editor.useQuery(undefined, { retry: false });
  useAdminLoadFailure(query);
  const entry = query.data?.testimonials.data;
  return {
    isLoaded: entry !== undefined,
    loadError: entry === undefined ? query.error : null,
    isRetrying: query.isFetching,
    retry: () => void query.refetch(),
    isDefault: entry?.isDefault ?? false,
    testimonials: entry ? parseTestimonials(entry.value) : [],
  };
}

/** The entries the carousel can show, as it reads them: one broken entry does not hide the rest. */
function parseTestimonials(raw: string): Testimonial[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((item) => {
    const result = testimonialSchema.safeParse(item);
    return result.success ? [result.data] : [];
  });
}
