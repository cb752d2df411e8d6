import { TRPCError } from "@trpc/server";
import type { AuthedContext, Context } from "../../trpc/context.ts";
import { recordActivity } from "../activity/record.ts";
import { localDate } from "../appointments/firm-clock.ts";
import { findBookingRules } from "../availability/queries.ts";
import { DEFAULT_FIRM_NAME, defaultSiteContent } from "../site/defaults.ts";
import { summarizeWeeklyHours } from "../site/hours.ts";
import { storedSiteContent, testimonialsView } from "../site/service.ts";
import { readSiteSettings, SITE_SETTING } from "../site-media/queries.ts";
import { CHECKLIST_HIDDEN_KEY, findFirmSetting, hasInvitationOrClient, hasMeetingType, TAX_YEAR_KEY, upsertFirmSetting } from "./queries.ts";
import {
  DEFAULT_TAX_YEAR,
  FIRST_TAX_YEAR,
  type SetupChecklist,
  type SetupStep,
  SETUP_STEPS,
  type TaxYear,
  type TaxYearInput,
  taxYearRangeMessage,
} from "./schemas.ts";

type ReadCtx = Pick<Context, "db" | "config">;

/** The year the Tax Forms tab names: the firm's setting, else the spec's 2024. */
export async function taxYear(ctx: Pick<Context, "db">): Promise<TaxYear> {
  const stored = Number(await findFirmSetting(ctx.db, TAX_YEAR_KEY));
  return { tax_year: Number.isInteger(stored) && stored >= FIRST_TAX_YEAR ? stored : DEFAULT_TAX_YEAR };
}

/** A year from 2020 to next year on the firm's clock: a later one has no forms yet. */
export async function setTaxYear(ctx: AuthedContext, input: TaxYearInput): Promise<TaxYear> {
  const latest = Number(localDate(ctx.now(), ctx.config.firmTimeZone).slice(0, 4)) + 1;
  if (input.tax_year < FIRST_TAX_YEAR || input.tax_year > latest) {
    throw new TRPCError({ code: "BAD_REQUEST", message: taxYearRangeMessage(latest) });
  }
  await ctx.db.transaction().execute(async (tx) => {
    await upsertFirmSetting(tx, TAX_YEAR_KEY, String(input.tax_year), ctx.now());
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { setting: "tax_year", tax_year: input.tax_year } });
  });
  return { tax_year: input.tax_year };
}

/** The shipped weekly hours (migration 2026-11-23T1700_self_booking), in words. */
const SHIPPED_HOURS = summarizeWeeklyHours([1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_minute: 9 * 60, end_minute: 17 * 60 })));
/** The contact email a firm without FIRM_EMAIL starts with: a placeholder, not an address of the firm's. */
const PLACEHOLDER_EMAIL = defaultSiteContent({ firmEmail: undefined }).contact.email;

/**
 * Each first-day step, done or not, read from what the firm has done (docs/site-content.md, First-day
 * checklist): a value counts once it differs from what the site shipped with, so a firm that kept a
 * default has not chosen it yet.
 */
export async function setupChecklist(ctx: ReadCtx): Promise<SetupChecklist> {
  const [stored, rules, meetingType, reached, hidden, switches, testimonials] = await Promise.all([
    storedSiteContent(ctx),
    findBookingRules(ctx.db, ctx.config.firmTimeZone),
    hasMeetingType(ctx.db),
    hasInvitationOrClient(ctx.db),
    findFirmSetting(ctx.db, CHECKLIST_HIDDEN_KEY),
    readSiteSettings(ctx.db),
    testimonialsView(ctx),
  ]);
  const shipped = defaultSiteContent(ctx.config);
  const value = (section: string, key: string) => stored[section]?.[key]?.value.trim() ?? "";
  const changed = (section: keyof typeof shipped, key: string) => value(section, key) !== "" && value(section, key) !== shipped[section][key];
  const done: Record<SetupStep, boolean> = {
    firm_name: value("company", "name") !== "" && value("company", "name") !== DEFAULT_FIRM_NAME,
    logo: changed("company", "logo"),
    contact:
      changed("contact", "phone") && changed("contact", "address") && (value("contact", "email") || shipped.contact.email) !== PLACEHOLDER_EMAIL,
    hours: value("contact", "hours") !== "" || summarizeWeeklyHours(rules.weekly) !== SHIPPED_HOURS,
    // Every sample edited, confirmed or deleted, or the section hidden: one real quote beside eleven
    // samples is not done (issue 48).
    testimonials: testimonials.samples === 0 || switches[SITE_SETTING.testimonialsHidden] === "true",
    // An uploaded video, or the welcome modal turned off.
    video: changed("welcome", "video") || switches[SITE_SETTING.welcomeModalOff] === "true",
    availability: rules.weekly.length > 0 && meetingType,
    invite_clients: reached,
  };
  return { items: SETUP_STEPS.map((id) => ({ id, done: done[id] })), hidden: hidden === "true" };
}

export async function setSetupChecklistHidden(ctx: AuthedContext, input: { hidden: boolean }): Promise<SetupChecklist> {
  await ctx.db.transaction().execute(async (tx) => {
    await upsertFirmSetting(tx, CHECKLIST_HIDDEN_KEY, String(input.hidden), ctx.now());
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { setting: "setup_checklist", hidden: input.hidden } });
  });
  return setupChecklist(ctx);
}
