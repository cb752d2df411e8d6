import { z } from "zod";

/** The spec's table of site-content sections and their keys (section 3). */
export const SITE_CONTENT_KEYS = {
  hero: ["title", "subtitle", "description", "image"],
  about: ["title", "description", "image"],
  contact: ["phone", "email", "address", "hours"],
  company: ["name", "logo"],
  welcome: ["video"],
  testimonials: ["data"],
  /** The public legal pages, /privacy and /terms (docs/site-content.md, Legal pages). */
  legal: ["privacy", "terms"],
} as const;
export type SiteSection = keyof typeof SITE_CONTENT_KEYS;
export const SITE_SECTIONS = Object.keys(SITE_CONTENT_KEYS) as [SiteSection, ...SiteSection[]];

/** Map by section then key, each holding `{ value }`, the REST shape of the site content. */
export const siteContentOutput = z.record(z.string(), z.record(z.string(), z.object({ value: z.string() })));
export type SiteContent = z.infer<typeof siteContentOutput>;

export const testimonialSchema = z.object({
  text: z
    .string({ error: "Testimonial text is required" })
    .trim()
    .min(1, "Testimonial text is required")
    .max(2000, "Testimonial text must be at most 2000 characters"),
  author: z
    .string({ error: "Testimonial author is required" })
    .trim()
    .min(1, "Testimonial author is required")
    .max(100, "Testimonial author must be at most 100 characters"),
  business: z.string().trim().max(100, "Business type must be at most 100 characters").default(""),
});
export type Testimonial = z.infer<typeof testimonialSchema>;

/**
 * The editor's view of one key: what the site shows now, and whether that is the built-in
 * default (nothing stored, or an empty value stored before empty values were refused).
 */
export type SiteContentEditorEntry = { value: string; isDefault: boolean; defaultValue: string };
export type SiteContentEditorView = Record<SiteSection, Record<string, SiteContentEditorEntry>>;

const isKnownKey = (v: { section: SiteSection; key: string }) => (SITE_CONTENT_KEYS[v.section] as readonly string[]).includes(v.key);

export const siteContentKeyInput = z
  .object({ section: z.enum(SITE_SECTIONS, { error: "Unknown site content section" }), key: z.string() })
  .refine(isKnownKey, { message: "Unknown site content key", path: ["key"] });

/** A path on this site (never another host: "//host" and "/\host" only look like paths), without "..". */
const OWN_PATH = /^\/(?![/\\])[\w\-.~/%]*$/;
const ownFile = (extensions: string, example: string, what: string) => {
  const pattern = new RegExp(`\\.(${extensions})$`, "i");
  return (value: string) =>
    OWN_PATH.test(value) && !value.split("/").includes("..") && pattern.test(value) ? null : `${what} must be a path on this site, like ${example}`;
};
const IMAGE_EXTENSIONS = "svg|png|jpe?g|webp|gif|avif";

/** Checks of the keys whose value has a form; the others take any text. Each returns the refusal, or null. */
const VALUE_CHECKS: Partial<Record<`${SiteSection}.${string}`, (value: string) => string | null>> = {
  "contact.email": (value) =>
    value.length <= 254 && z.email().safeParse(value).success ? null : "Contact email must be an email address, like office@example.com",
  "contact.phone": (value) => {
    const digits = value.replace(/\D/g, "").length;
    return /^\+?[\d\s().-]+((\s*(ext\.?|x)\s*)\d{1,6})?$/i.test(value) && digits >= 7 && digits <= 21
      ? null
      : "Contact phone must be a phone number, like (555) 010-4200";
  },
  "contact.hours": (value) => (value.length <= 200 ? null : "Hours must be at most 200 characters"),
  "hero.image": ownFile(IMAGE_EXTENSIONS, "/images/hero.svg", "Hero image"),
  "about.image": ownFile(IMAGE_EXTENSIONS, "/images/about.svg", "About image"),
  "company.logo": ownFile(IMAGE_EXTENSIONS, "/images/logo.svg", "Logo"),
  "welcome.video": ownFile("mp4|webm|ogv|ogg", "/videos/welcome.mp4", "Welcome video"),
};

/**
 * One key's new value, trimmed. An empty value is not refused: it puts the key back to its
 * default (the page never shows an empty value); other values must have their key's form.
 */
export const updateSiteContentInput = z
  .object({
    section: z.enum(SITE_SECTIONS, { error: "Unknown site content section" }),
    key: z.string(),
    value: z.string({ error: "value must be text" }).max(100_000, "Value must be at most 100000 characters").trim(),
  })
  .refine(isKnownKey, { message: "Unknown site content key", path: ["key"] })
  .superRefine((v, ctx) => {
    const problem = v.value === "" ? null : VALUE_CHECKS[`${v.section}.${v.key}`]?.(v.value);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["value"] });
  });

/** The author of the samples an earlier editor started from: never published, whatever sends it. */
const SAMPLE_AUTHOR = "Sample Client";
export const publishableTestimonials = z
  .array(testimonialSchema)
  .max(100, "At most 100 testimonials")
  .refine((list) => list.every((t) => t.author !== SAMPLE_AUTHOR), {
    message: `Sample testimonials are not published: replace "${SAMPLE_AUTHOR}" with the client's name, or delete them`,
  });
export const updateTestimonialsInput = z.object({ testimonials: publishableTestimonials });
