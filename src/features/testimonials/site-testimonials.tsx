import { parseTestimonials } from "./parse-testimonials.ts";
import { TestimonialCarousel } from "./testimonial-carousel.tsx";

/**
 * The landing page's testimonials from the site content's stored JSON: a module of its own, so the
 * carousel, the parsing and the twelve sample quotes load as the visitor nears them (landing.tsx).
 */
export function SiteTestimonials({ data, held }: { data: string | undefined; held: boolean }) {
  return <TestimonialCarousel testimonials={parseTestimonials(data)} held={held} />;
}
