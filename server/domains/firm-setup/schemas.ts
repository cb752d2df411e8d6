// The firm's first setup (issue 31): the tax year the portal's Tax Forms tab names, and the
// first-day checklist on the admin Overview. Importable by the web client (zod only).
import { z } from "zod";

/** The year of the spec ("Tax forms card year: 2024") until the firm changes it. */
export const DEFAULT_TAX_YEAR = 2024;
/** The earliest year the firm may choose; the latest is next year on the firm's clock. */
export const FIRST_TAX_YEAR = 2020;

export const taxYearRangeMessage = (latest: number) => `tax_year must be a year from ${FIRST_TAX_YEAR} to ${latest}`;

/** The upper end depends on today, so the service checks it (firm-setup/service.ts); this checks the form. */
export const taxYearInput = z.object({
  tax_year: z.number({ error: "tax_year must be a year, like 2025" }).int("tax_year must be a year, like 2025"),
});
export type TaxYearInput = z.infer<typeof taxYearInput>;

export const taxYearOutput = z.object({ tax_year: z.number() });
export type TaxYear = z.infer<typeof taxYearOutput>;

/** The checklist's items, in the order it shows them. */
export const SETUP_STEPS = ["firm_name", "logo", "contact", "hours", "testimonials", "video", "availability", "invite_clients"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export const setupChecklistOutput = z.object({
  items: z.array(z.object({ id: z.enum(SETUP_STEPS), done: z.boolean() })),
  /** The admin hid the checklist (it stays reachable: the Overview offers to show it again). */
  hidden: z.boolean(),
});
export type SetupChecklist = z.infer<typeof setupChecklistOutput>;

export const setupChecklistHiddenInput = z.object({ hidden: z.boolean({ error: "hidden must be true or false" }) });
