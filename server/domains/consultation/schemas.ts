import { z } from "zod";
import { nameText, preferredTimeSchema } from "../shared-schemas.ts";
import { SERVICE_ID, UNKNOWN_SERVICE } from "../site/schemas.ts";

export const REQUIRED_FIELDS = "Please fill in all required fields";
export const PAST_DATE = "Please choose a date from today on";

export const PREFERRED_TIME_OPTIONS = [
  { value: "morning", label: "Morning (9 AM-12 PM)" },
  { value: "afternoon", label: "Afternoon (12 PM-5 PM)" },
  { value: "evening", label: "Evening (5 PM-7 PM)" },
] as const;

const required = z.string({ error: REQUIRED_FIELDS }).trim().min(1, REQUIRED_FIELDS);
const optionalBlank = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

export const consultationRequestInput = z.object({
  name: nameText(REQUIRED_FIELDS).min(1, REQUIRED_FIELDS).max(100, "Name must be at most 100 characters"),
  email: required.max(254, "Please enter a valid email address").pipe(z.email("Please enter a valid email address")),
  phone: required.max(40, "Please enter a valid phone number").regex(/^[0-9+().\-\s]{7,40}$/, "Please enter a valid phone number"),
  /**
   * One of the form's choices: the id of a service the site offers there, or "other" (the
   * specification's six by default; the firm's own list in the site content). The service checks
   * it against the list as it stands (consultation/service.ts); the schema only its form.
   */
  service: optionalBlank(
    z.string({ error: UNKNOWN_SERVICE }).regex(SERVICE_ID, UNKNOWN_SERVICE).meta({
      description:
        "A service id of the site's consultation choices (services.list), or other; by default bookkeeping, tax-prep, notary, admin, consulting, other",
    }),
  ),
  preferredDate: optionalBlank(z.iso.date("Please choose a valid date")),
  preferredTime: optionalBlank(preferredTimeSchema),
  message: z.string().trim().max(5000, "Message must be at most 5000 characters").default(""),
});
export type ConsultationRequestInput = z.infer<typeof consultationRequestInput>;

/** A stored request as the firm reads it. */
export const consultationRequestOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  service: z.string().nullable(),
  /** The service in words, as the site's list names it now; null without one, or for a service removed since. */
  service_label: z.string().nullable(),
  preferredDate: z.string().nullable(),
  preferredTime: z.string().nullable(),
  message: z.string(),
  created_at: z.date(),
  handled_at: z.date().nullable(),
  /** Null until the email to the firm went out. */
  email_sent_at: z.date().nullable(),
  /** Set when every try to send that email failed; it can be resent. */
  email_failed_at: z.date().nullable(),
});
export type ConsultationRequest = z.infer<typeof consultationRequestOutput>;
