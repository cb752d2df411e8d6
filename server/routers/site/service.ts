import { TRPCError } from "@trpc/server";
import type { Context } from "../../trpc/context.ts";
import { DEFAULT_FIRM_NAME, defaultSiteContent } from "./defaults.ts";
import { findSiteValue, insertMissingSiteValues, listSiteContent, upsertSiteValue } from "./queries.ts";
import { type SiteContent, SITE_CONTENT_KEYS, type SiteSection, type Testimonial, testimonialSchema } from "./schemas.ts";
import { z } from "zod";

type SiteCtx = Pick<Context, "db" | "config" | "now">;

const storedTestimonials = z.array(testimonialSchema).max(100, "At most 100 testimonials");

/** Only what is stored: the admin page shows Initialize when this is empty (spec section 2). */
export async function storedSiteContent(ctx: Pick<Context, "db">): Promise<SiteContent> {
  const content: SiteContent = {};
  for (const row of await listSiteContent(ctx.db)) {
    (content[row.section] ??= {})[row.key] = { value: row.value };
  }
  return content;
}

/** The landing page's view: every section and key of the spec, stored values over the defaults. */
export async function publicSiteContent(ctx: SiteCtx): Promise<SiteContent> {
  const stored = await storedSiteContent(ctx);
  const defaults = defaultSiteContent(ctx.config);
  const content: SiteContent = {};
  for (const section of Object.keys(SITE_CONTENT_KEYS) as SiteSection[]) {
    content[section] = {};
    for (const key of SITE_CONTENT_KEYS[section]) {
      content[section][key] = { value: stored[section]?.[key]?.value ?? defaults[section][key] ?? "" };
    }
  }
  return content;
}

export async function updateSiteValue(ctx: SiteCtx, input: { section: SiteSection; key: string; value: string }) {
  const value = input.section === "testimonials" ? JSON.stringify(parseTestimonials(input.value)) : input.value;
  await upsertSiteValue(ctx.db, { section: input.section, key: input.key, value }, ctx.now());
  return { success: true as const };
}

export async function saveTestimonials(ctx: SiteCtx, testimonials: Testimonial[]) {
  await upsertSiteValue(ctx.db, { section: "testimonials", key: "data", value: JSON.stringify(testimonials) }, ctx.now());
  return { success: true as const };
}

/** Stores the defaults for every key not stored yet; running it again changes nothing. */
export async function initSiteContent(ctx: SiteCtx) {
  const defaults = defaultSiteContent(ctx.config);
  const entries = Object.entries(defaults).flatMap(([section, keys]) =>
    Object.entries(keys).map(([key, value]) => ({ section, key, value })),
  );
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
  const result = storedTestimonials.safeParse(parsed);
  if (!result.success) {
    throw new TRPCError({ code: "BAD_REQUEST", message: result.error.issues[0]?.message ?? "Invalid testimonials" });
  }
  return result.data;
}

/** The firm's name for emails and page titles. */
export async function firmName(ctx: Pick<Context, "db">): Promise<string> {
  return (await findSiteValue(ctx.db, "company", "name"))?.trim() || DEFAULT_FIRM_NAME;
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
