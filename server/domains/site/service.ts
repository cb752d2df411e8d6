import { TRPCError } from "@trpc/server";
import { type ActivityActorContext, recordActivity } from "../activity/record.ts";
import type { Context } from "../../trpc/context.ts";
import { readSiteSettings, SITE_SETTING } from "../site-media/queries.ts";
import { DEFAULT_FIRM_NAME, DEFAULT_TESTIMONIALS, defaultServices, defaultSiteContent } from "./defaults.ts";
import { availabilityHours } from "./hours.ts";
import { deleteSiteValue, findSiteValue, insertMissingSiteValues, listSiteContent, upsertSiteValue } from "./queries.ts";
import {
  parseServiceList,
  publishableTestimonials,
  type Service,
  type SiteContent,
  SITE_CONTENT_KEYS,
  type SiteContentEditorView,
  type SiteSection,
  type Testimonial,
  testimonialSchema,
} from "./schemas.ts";
import { z } from "zod";

type SiteCtx = Pick<Context, "db" | "config" | "now">;
/** An edit by the admin, recorded in the activity trail with the change. */
type SiteEditCtx = SiteCtx & ActivityActorContext;

/** Only what is stored: the admin page shows Initialize when this is empty. */
export async function storedSiteContent(ctx: Pick<Context, "db">): Promise<SiteContent> {
  const content: SiteContent = {};
  for (const row of await listSiteContent(ctx.db)) {
    (content[row.section] ??= {})[row.key] = { value: row.value };
  }
  return content;
}

/**
 * What the site shows for every section and key of the spec, and whether it is the default: a
 * stored value, unless it is empty (stored before empty values meant "the default"), which
 * never reaches the page.
 */
export async function siteContentEditorView(ctx: SiteCtx): Promise<SiteContentEditorView> {
  const [stored, confirmedBefore] = await Promise.all([storedSiteContent(ctx), samplesConfirmedBefore(ctx)]);
  const defaults = defaultSiteContent(ctx.config);
  // contact.hours is empty by default, which the site shows as the weekly availability in words.
  const shown: typeof defaults = { ...defaults, contact: { ...defaults.contact, hours: await availabilityHours(ctx) } };
  const view = {} as SiteContentEditorView;
  for (const section of Object.keys(SITE_CONTENT_KEYS) as SiteSection[]) {
    view[section] = {};
    for (const key of SITE_CONTENT_KEYS[section]) {
      const value = stored[section]?.[key]?.value;
      const defaultValue = defaults[section][key] ?? "";
      const isDefault = value === undefined || isEmptyValue(section, key, value);
      view[section][key] = { value: isDefault ? (shown[section][key] ?? "") : value, isDefault, defaultValue };
    }
  }
  // Each quote marked as the samples' rule says, whatever an earlier release stored (markSamples).
  view.testimonials.data!.value = JSON.stringify(testimonialsOf(stored.testimonials?.data?.value, confirmedBefore));
  return view;
}

/** Empty text, for the testimonials a list with none the carousel can show, for the services no list of services. */
function isEmptyValue(section: SiteSection, key: string, value: string): boolean {
  if (value.trim() === "") return true;
  if (section === "services") return parseServiceList(value) === null;
  if (section !== "testimonials" || key !== "data") return false;
  try {
    const list: unknown = JSON.parse(value);
    return !Array.isArray(list) || !list.some((item) => testimonialSchema.safeParse(item).success);
  } catch {
    return true;
  }
}

/**
 * The landing page's view: every section and key of the spec, stored values over the defaults;
 * of the testimonials, the firm's own when it has any, else the samples marked as such.
 */
export async function publicSiteContent(ctx: SiteCtx): Promise<SiteContent> {
  const view = await siteContentEditorView(ctx);
  const content: SiteContent = {};
  for (const [section, keys] of Object.entries(view)) {
    content[section] = Object.fromEntries(Object.entries(keys).map(([key, { value }]) => [key, { value }]));
  }
  content.testimonials!.data = { value: JSON.stringify(publishedTestimonials(JSON.parse(view.testimonials.data!.value) as Testimonial[])) };
  return content;
}

/** Stores one value; an empty one (the schema trims) removes the stored value, so the default shows. */
export async function updateSiteValue(ctx: SiteEditCtx, input: { section: SiteSection; key: string; value: string }) {
  if (input.value === "") return resetSiteValue(ctx, input);
  const value =
    input.section === "testimonials"
      ? JSON.stringify(markSamples(parseTestimonials(input.value), await samplesConfirmedBefore(ctx)))
      : input.section === "services"
        ? JSON.stringify(parseServiceList(input.value))
        : input.value;
  await ctx.db.transaction().execute(async (tx) => {
    await upsertSiteValue(tx, { section: input.section, key: input.key, value }, ctx.now());
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { section: input.section, key: input.key } });
  });
  return { success: true as const };
}

/** Back to the built-in default: nothing stored for that key. */
export async function resetSiteValue(ctx: SiteEditCtx, input: { section: SiteSection; key: string }) {
  await ctx.db.transaction().execute(async (tx) => {
    await deleteSiteValue(tx, input.section, input.key);
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { section: input.section, key: input.key, reset: true } });
  });
  return { success: true as const };
}

/** The whole list (Save all, and every delete): each sample stays one unless edited or confirmed (markSamples). */
export async function saveTestimonials(ctx: SiteEditCtx, testimonials: Testimonial[]) {
  const marked = markSamples(testimonials, await samplesConfirmedBefore(ctx));
  await ctx.db.transaction().execute(async (tx) => {
    await upsertSiteValue(tx, { section: "testimonials", key: "data", value: JSON.stringify(marked) }, ctx.now());
    await recordActivity(tx, ctx, {
      action: "site.update",
      client: null,
      detail: { testimonials: marked.length, samples: marked.filter((t) => t.sample === true).length },
    });
  });
  return { success: true as const };
}

/** The testimonials as the editor shows them (the stored list, or the built-in one), each marked (markSamples). */
function testimonialsOf(stored: string | undefined, confirmedBefore: boolean): Testimonial[] {
  const list = stored === undefined || isEmptyValue("testimonials", "data", stored) ? BUILT_IN_WORDS : readTestimonialList(stored);
  return markSamples(list, confirmedBefore);
}

/** The testimonials as the editor shows them, each marked, and how many are still samples. */
export async function testimonialsView(ctx: Pick<Context, "db">): Promise<{ testimonials: Testimonial[]; samples: number; showsSamples: boolean }> {
  const [stored, confirmedBefore] = await Promise.all([findSiteValue(ctx.db, "testimonials", "data"), samplesConfirmedBefore(ctx)]);
  const testimonials = testimonialsOf(stored, confirmedBefore);
  const samples = testimonials.filter((t) => t.sample === true).length;
  return { testimonials, samples, showsSamples: samples > 0 && samples === testimonials.length };
}

/**
 * The firm confirms one sample, by its place in the list the editor shows, as words it may publish
 * as its own (404 past the end, 409 for a quote that is not a sample).
 */
export async function confirmTestimonial(ctx: SiteEditCtx, input: { index: number }) {
  const { testimonials } = await testimonialsView(ctx);
  const target = testimonials[input.index];
  if (!target) throw new TRPCError({ code: "NOT_FOUND", message: "Testimonial not found" });
  if (target.sample !== true) throw new TRPCError({ code: "CONFLICT", message: "This testimonial is not a sample" });
  const next = testimonials.map((t, i) => (i === input.index ? { ...t, sample: false } : t));
  await ctx.db.transaction().execute(async (tx) => {
    await upsertSiteValue(tx, { section: "testimonials", key: "data", value: JSON.stringify(next) }, ctx.now());
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { testimonials: "confirmed", author: target.author } });
  });
}

const wordsOf = (t: Pick<Testimonial, "text" | "author" | "business">) => JSON.stringify([t.text.trim(), t.author.trim(), (t.business ?? "").trim()]);
const SAMPLE_WORDS = new Set(DEFAULT_TESTIMONIALS.map(wordsOf));
/** The built-in quotes without their marks, for markSamples to mark (a firm's earlier bulk confirmation counts). */
const BUILT_IN_WORDS: Testimonial[] = DEFAULT_TESTIMONIALS.map(({ sample: _sample, ...words }) => words);

/**
 * Each quote marked (docs/site-content.md, Testimonials): a built-in quote, word for word, is a
 * sample (`sample: true`) until the firm confirms it (`sample: false`); anything else is the firm's
 * own (no mark), so editing a sample makes it the firm's. A sample sent without its mark (an
 * earlier release stored the samples so) stays a sample, unless the firm confirmed the samples
 * as a whole before confirming became one by one (`confirmedBefore`).
 */
export function markSamples(list: readonly Testimonial[], confirmedBefore: boolean): Testimonial[] {
  return list.map(({ sample, ...words }) => {
    if (!SAMPLE_WORDS.has(wordsOf(words))) return words;
    return { ...words, sample: sample ?? !confirmedBefore };
  });
}

/** What the home page publishes: the firm's own quotes when it has any, else the samples (marked, and shown as samples). */
export function publishedTestimonials(marked: readonly Testimonial[]): Testimonial[] {
  const own = marked.filter((t) => t.sample !== true).map(({ sample: _sample, ...words }) => words);
  return own.length > 0 ? own : [...marked];
}

/** The firm's bulk confirmation of the samples, before issue 48 made it one quote at a time; still honoured. */
async function samplesConfirmedBefore(ctx: Pick<Context, "db">): Promise<boolean> {
  return (await readSiteSettings(ctx.db))[SITE_SETTING.testimonialsConfirmedAt] !== undefined;
}

/** A list the carousel can show, as it reads one: entries that are not testimonials are left out. */
function readTestimonialList(value: string): Testimonial[] {
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((item) => {
      const result = testimonialSchema.safeParse(item);
      return result.success ? [result.data] : [];
    });
  } catch {
    return [];
  }
}

/** The firm's services as the site shows them: the stored list, or the specification's six (with NOTARY_URL). */
export async function siteServices(ctx: Pick<Context, "db" | "config">): Promise<Service[]> {
  return parseServiceList(await findSiteValue(ctx.db, "services", "list")) ?? defaultServices(ctx.config.notaryUrl);
}

/** Stores the defaults for every key not stored yet; running it again changes nothing. */
export async function initSiteContent(ctx: SiteCtx) {
  const defaults = defaultSiteContent(ctx.config);
  const entries = Object.entries(defaults).flatMap(([section, keys]) => Object.entries(keys).map(([key, value]) => ({ section, key, value })));
  await insertMissingSiteValues(ctx.db, entries, ctx.now());
  return { success: true as const };
}

function parseTestimonials(value: string): Testimonial[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new TRPCError({ code: "BAD_REQUEST", message: "Testimonials must be a JSON list of text, author and business" });
  }
  const result = publishableTestimonials.safeParse(parsed);
  if (!result.success) {
    throw new TRPCError({ code: "BAD_REQUEST", message: result.error.issues[0]?.message ?? "Invalid testimonials" });
  }
  return result.data;
}

/** The firm's name for emails and page titles. */
export async function firmName(ctx: Pick<Context, "db">): Promise<string> {
  return (await findSiteValue(ctx.db, "company", "name"))?.trim() || DEFAULT_FIRM_NAME;
}

/** The firm's street address as the site shows it (the contact section), else the default. */
export async function firmAddress(ctx: Pick<Context, "db" | "config">): Promise<string> {
  return (await findSiteValue(ctx.db, "contact", "address"))?.trim() || defaultSiteContent(ctx.config).contact.address!;
}

/**
 * Where consultation requests go: the contact email shown on the site (when it is an address),
 * else FIRM_EMAIL, else the default.
 */
export async function firmContactEmail(ctx: Pick<Context, "db" | "config">): Promise<string> {
  const stored = (await findSiteValue(ctx.db, "contact", "email"))?.trim();
  if (stored && z.email().safeParse(stored).success) return stored;
  return defaultSiteContent(ctx.config).contact.email!;
}
