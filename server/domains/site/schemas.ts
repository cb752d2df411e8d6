import { z } from "zod";

/** The spec's table of site-content sections and their keys (section 3). */
export const SITE_CONTENT_KEYS = {
  hero: ["title", "subtitle", "description", "image"],
  about: ["title", "description", "image"],
  contact: ["phone", "email", "address", "hours"],
  company: ["name", "logo"],
  welcome: ["video"],
  testimonials: ["data"],
  /** The firm's services: the home page's cards, the footer's list and the consultation form's choices (issue 48). */
  services: ["list"],
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
  /**
   * One of the built-in invented quotes, not a client's words (docs/site-content.md, Testimonials):
   * `true` on a sample, `false` on a built-in quote the firm confirmed as its own; absent on the
   * firm's own words. Never published as the firm's.
   */
  sample: z.boolean({ error: "sample must be true or false" }).optional(),
});
export type Testimonial = z.infer<typeof testimonialSchema>;

/** A path on this site (never another host: "//host" and "/\host" only look like paths), without "..". */
const OWN_PATH = /^\/(?![/\\])[\w\-.~/%]*$/;

/** The icons a service's card may show (lucide's names; the page draws each, so every one weighs on the landing page's budget). */
export const SERVICE_ICONS = ["calculator", "file-text", "stamp", "clipboard-list", "wallet", "trending-up", "briefcase"] as const;
export type ServiceIcon = (typeof SERVICE_ICONS)[number];

/** The consultation form's last choice, after the firm's services: the specification's option list ends with it. */
export const OTHER_CHOICE = { value: "other", label: "Other" } as const;
export const MAX_SERVICES = 24;
/** What the consultation form says of a service that is not one of its choices (the server's refusal too). */
export const UNKNOWN_SERVICE = "Please choose a service from the list";
/** The form's value of a service: its id. */
export const SERVICE_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Another site (http or https) or a path on this one: never `javascript:` or `data:`. */
function isServiceLink(value: string): boolean {
  if (value.startsWith("/")) return OWN_PATH.test(value) && !value.split("/").includes("..");
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * One of the firm's services (docs/site-content.md, Services): a card on the home page (title,
 * description, icon, an optional link), a line of the footer, and, when it has a `form_label`, a
 * choice of the consultation form whose value is its `id` (kept when the title changes, so a
 * request keeps its meaning).
 */
export const serviceSchema = z.object({
  id: z
    .string({ error: "Each service needs an id" })
    .regex(SERVICE_ID, "A service's id is 1 to 40 lowercase letters, digits or -")
    .refine((id) => id !== OTHER_CHOICE.value, `"${OTHER_CHOICE.value}" is the consultation form's own last choice`),
  title: z
    .string({ error: "Each service needs a title" })
    .trim()
    .min(1, "Each service needs a title")
    .max(80, "A service's title must be at most 80 characters"),
  description: z.string({ error: "description must be text" }).trim().max(300, "A service's description must be at most 300 characters").default(""),
  icon: z.enum(SERVICE_ICONS, { error: `A service's icon is one of ${SERVICE_ICONS.join(", ")}` }).default("briefcase"),
  link: z
    .string({ error: "link must be text" })
    .trim()
    .max(500, "A service's link must be at most 500 characters")
    .refine((v) => v === "" || isServiceLink(v), "A service's link must be a web address (https://...) or a path on this site, like /terms")
    .default(""),
  link_text: z.string({ error: "link_text must be text" }).trim().max(60, "A link's text must be at most 60 characters").default(""),
  /** Its name among the consultation form's choices; empty: not offered there. */
  form_label: z.string({ error: "form_label must be text" }).trim().max(80, "A form choice must be at most 80 characters").default(""),
});
export type Service = z.infer<typeof serviceSchema>;

export const serviceListSchema = z
  .array(serviceSchema, { error: "Services must be a list" })
  .min(1, "Keep at least one service (Reset to default brings back the six)")
  .max(MAX_SERVICES, `At most ${MAX_SERVICES} services`)
  .superRefine((list, ctx) => {
    const ids = new Set<string>();
    const labels = new Set<string>();
    list.forEach((service, index) => {
      if (ids.has(service.id))
        ctx.addIssue({ code: "custom", message: `Service ${index + 1}: the id "${service.id}" is used twice`, path: [index, "id"] });
      ids.add(service.id);
      const label = service.form_label.toLowerCase();
      if (label && labels.has(label))
        ctx.addIssue({
          code: "custom",
          message: `Service ${index + 1}: "${service.form_label}" is already a choice of the form`,
          path: [index, "form_label"],
        });
      if (label) labels.add(label);
    });
  });

/** A stored list read back: null when it is not one (the site then shows the built-in services). */
export function parseServiceList(value: string | undefined): Service[] | null {
  if (!value) return null;
  try {
    const result = serviceListSchema.safeParse(JSON.parse(value));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** The consultation form's choices: each service offered there, in the firm's order, then Other. */
export function consultationChoices(services: readonly Service[]): Array<{ value: string; label: string }> {
  return [...services.filter((s) => s.form_label !== "").map((s) => ({ value: s.id, label: s.form_label })), OTHER_CHOICE];
}

/** The words for a request's service value: its form choice, else its title, else null (a service removed since). */
export function serviceLabel(services: readonly Service[], value: string | null | undefined): string | null {
  if (!value) return null;
  if (value === OTHER_CHOICE.value) return OTHER_CHOICE.label;
  const service = services.find((s) => s.id === value);
  return service ? service.form_label || service.title : null;
}

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
  "services.list": (value) => listProblem(value, serviceListSchema, "Services must be a JSON list of services"),
};

/** The first refusal of a JSON list's schema, or null. */
function listProblem(value: string, schema: z.ZodType, notJson: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return notJson;
  }
  const result = schema.safeParse(parsed);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const index = issue?.path[0];
  const message = issue?.message ?? notJson;
  return typeof index === "number" && !message.startsWith("Service ") ? `Service ${index + 1}: ${message}` : message;
}

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
