import { TRPCError } from "@trpc/server";
import { type ActivityActorContext, recordActivity } from "../activity/record.ts";
import type { Context } from "../../trpc/context.ts";
import { DEFAULT_FIRM_NAME, defaultSiteContent } from "./defaults.ts";
import { availabilityHours } from "./hours.ts";
import { deleteSiteValue, findSiteValue, insertMissingSiteValues, listSiteContent, upsertSiteValue } from "./queries.ts";
import {
  publishableTestimonials,
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
  const stored = await storedSiteContent(ctx);
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
  return view;
}

/** Empty text, or for the testimonials a list with none the carousel can show. */
function isEmptyValue(section: SiteSection, key: string, value: string): boolean {
  if (value.trim() === "") return true;
  if (section !== "testimonials" || key !== "data") return false;
  try {
    const list: unknown = JSON.parse(value);
    return !Array.isArray(list) || !list.some((item) => testimonialSchema.safeParse(item).success);
  } catch {
    return true;
  }
}

/** The landing page's view: every section and key of the spec, stored values over the defaults. */
export async function publicSiteContent(ctx: SiteCtx): Promise<SiteContent> {
  const view = await siteContentEditorView(ctx);
  const content: SiteContent = {};
  for (const [section, keys] of Object.entries(view)) {
    content[section] = Object.fromEntries(Object.entries(keys).map(([key, { value }]) => [key, { value }]));
  }
  return content;
}

/** Stores one value; an empty one (the schema trims) removes the stored value, so the default shows. */
export async function updateSiteValue(ctx: SiteEditCtx, input: { section: SiteSection; key: string; value: string }) {
  if (input.value === "") return resetSiteValue(ctx, input);
  const value = input.section === "testimonials" ? JSON.stringify(parseTestimonials(input.value)) : input.value;
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

export async function saveTestimonials(ctx: SiteEditCtx, testimonials: Testimonial[]) {
  await ctx.db.transaction().execute(async (tx) => {
    await upsertSiteValue(tx, { section: "testimonials", key: "data", value: JSON.stringify(testimonials) }, ctx.now());
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { testimonials: testimonials.length } });
  });
  return { success: true as const };
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
