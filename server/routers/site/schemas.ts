import { z } from "zod";

/** The spec's table of site-content sections and their keys (section 3). */
export const SITE_CONTENT_KEYS = {
  hero: ["title", "subtitle", "description", "image"],
  about: ["title", "description", "image"],
  contact: ["phone", "email", "address"],
  company: ["name", "logo"],
  welcome: ["video"],
  testimonials: ["data"],
} as const;
export type SiteSection = keyof typeof SITE_CONTENT_KEYS;
export const SITE_SECTIONS = Object.keys(SITE_CONTENT_KEYS) as [SiteSection, ...SiteSection[]];

/** Map by section then key, each holding `{ value }` (spec section 3). */
export const siteContentOutput = z.record(z.string(), z.record(z.string(), z.object({ value: z.string() })));
export type SiteContent = z.infer<typeof siteContentOutput>;

export const testimonialSchema = z.object({
  text: z.string({ error: "Testimonial text is required" }).trim().min(1, "Testimonial text is required").max(2000, "Testimonial text must be at most 2000 characters"),
  author: z.string({ error: "Testimonial author is required" }).trim().min(1, "Testimonial author is required").max(100, "Testimonial author must be at most 100 characters"),
  business: z.string().trim().max(100, "Business type must be at most 100 characters").default(""),
});
export type Testimonial = z.infer<typeof testimonialSchema>;

export const updateSiteContentInput = z
  .object({
    section: z.enum(SITE_SECTIONS, { error: "Unknown site content section" }),
    key: z.string(),
    value: z.string({ error: "value must be text" }).max(100_000, "Value must be at most 100000 characters"),
  })
  .refine((v) => (SITE_CONTENT_KEYS[v.section] as readonly string[]).includes(v.key), {
    message: "Unknown site content key",
    path: ["key"],
  });

export const updateTestimonialsInput = z.object({
  testimonials: z.array(testimonialSchema).max(100, "At most 100 testimonials"),
});
