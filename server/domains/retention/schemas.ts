// Retention and disposal (issue 37; docs/safeguards.md, "Retention and disposal"): the firm's rules,
// the list of what is due within the next days, and the legal hold on an account. Zod only, so the
// admin page's forms import them.
import { z } from "zod";
import { TRASH_RETENTION_DAYS } from "../documents/schemas.ts";
import { idSchema } from "../shared-schemas.ts";

/** Documents are kept this many years after an account's last activity unless the firm says otherwise. */
export const DEFAULT_RETENTION_YEARS = 7;
/**
 * A signed Form 8879 is kept at least this long after it was signed (the IRS's rule for an ERO); the
 * signature's own lock on every signed document lasts as long (signatures/common.ts, retentionEnd).
 */
export const FORM_8879_MIN_YEARS = 3;
/** How far ahead the firm sees what is due for disposal. */
export const DUE_WINDOW_DAYS = 30;
export { TRASH_RETENTION_DAYS };

export const retentionSettingsOutput = z.object({
  /** Years an account's documents are kept after its last activity. */
  years_after_last_activity: z.number().int(),
  /** Years a signed Form 8879 (its original and its sealed PDF) is kept after signing, at least 3. */
  form_8879_years: z.number().int(),
  /** Days a document stays in the trash before it is deleted for good (fixed). */
  trash_days: z.number().int(),
});
export type RetentionSettings = z.infer<typeof retentionSettingsOutput>;

export const updateRetentionInput = z.object({
  years_after_last_activity: z
    .number({ error: "Years after last activity must be a whole number from 1 to 50" })
    .int("Years after last activity must be a whole number from 1 to 50")
    .min(1, "Years after last activity must be a whole number from 1 to 50")
    .max(50, "Years after last activity must be a whole number from 1 to 50"),
  form_8879_years: z
    .number({ error: `Form 8879 years must be a whole number from ${FORM_8879_MIN_YEARS} to 50` })
    .int(`Form 8879 years must be a whole number from ${FORM_8879_MIN_YEARS} to 50`)
    .min(FORM_8879_MIN_YEARS, `A signed Form 8879 is kept at least ${FORM_8879_MIN_YEARS} years`)
    .max(50, `Form 8879 years must be a whole number from ${FORM_8879_MIN_YEARS} to 50`),
});
export type UpdateRetentionInput = z.infer<typeof updateRetentionInput>;

/** Under which rule a document goes: the account's inactivity, or the trash's 30 days. */
export const DISPOSAL_RULES = ["inactivity", "trash"] as const;
export type DisposalRule = (typeof DISPOSAL_RULES)[number];

export const legalHoldOutput = z.object({
  reason: z.string(),
  placed_at: z.date(),
  placed_by_name: z.string().nullable(),
});
export type LegalHold = z.infer<typeof legalHoldOutput>;

/** One account's documents due within the window under one rule, on the day the first of them goes. */
export const dueItemOutput = z.object({
  account_id: z.string(),
  account_name: z.string(),
  rule: z.enum(DISPOSAL_RULES),
  /** When the first of these documents goes (the job runs daily: at its first run from then). */
  due_at: z.date(),
  documents: z.number().int(),
  bytes: z.number().int(),
  /** The account's last activity (docs/safeguards.md says what counts). */
  last_activity_at: z.date(),
});
export type DueItem = z.infer<typeof dueItemOutput>;

/** Held accounts are listed too: what would go but for the hold. */
export const dueListOutput = z.object({
  window_days: z.number().int(),
  items: z.array(dueItemOutput.extend({ held: z.boolean() })),
  holds: z.array(legalHoldOutput.extend({ account_id: z.string(), account_name: z.string() })),
  /**
   * Accounts without people that stand for their signed records (a person's deletion left them;
   * docs/security.md, "Round 4"), each with the day those records are released, soonest first.
   */
  kept: z.array(z.object({ account_id: z.string(), account_name: z.string(), retained_until: z.date() })),
});
export type DueList = z.infer<typeof dueListOutput>;

export const legalHoldReason = z
  .string({ error: "Say why the account is held" })
  .trim()
  .min(1, "Say why the account is held")
  .max(1000, "The reason is at most 1000 characters");

export const placeLegalHoldInput = z.object({ id: idSchema, reason: legalHoldReason });
export const legalHoldBody = z.object({ reason: legalHoldReason });

export const accountLegalHoldOutput = z.object({ account_id: z.string(), hold: legalHoldOutput.nullable() });
export type AccountLegalHold = z.infer<typeof accountLegalHoldOutput>;
