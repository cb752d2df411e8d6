import { DEFAULT_TESTIMONIALS } from "@server/domains/site/defaults.ts";
import type { Testimonial } from "@server/domains/site/schemas.ts";

/**
 * The carousel's list from `testimonials.data.value` (a JSON string). Anything that is not a
 * non-empty list of { text, author, business?, sample? } falls back to the 12 defaults. The server
 * sends the firm's own quotes, or else the samples, each with `sample: true` (docs/site-content.md).
 */
export function parseTestimonials(value: string | undefined): Testimonial[] {
  if (!value) return DEFAULT_TESTIMONIALS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return DEFAULT_TESTIMONIALS;
  }
  if (!Array.isArray(parsed)) return DEFAULT_TESTIMONIALS;
  const testimonials = parsed.flatMap((entry: unknown): Testimonial[] => {
    if (typeof entry !== "object" || entry === null) return [];
    const { text, author, business, sample } = entry as Record<string, unknown>;
    if (typeof text !== "string" || typeof author !== "string" || !text.trim()) return [];
    return [{ text, author, business: typeof business === "string" ? business : "", ...(sample === true && { sample }) }];
  });
  return testimonials.length > 0 ? testimonials : DEFAULT_TESTIMONIALS;
}
