import { z } from "zod";
import { idSchema } from "../shared-schemas.ts";
import { ACTIVITY_ACTIONS } from "./record.ts";

/** One entry of the trail as both views show it (the client's view leaves out ip and user agent of the firm's staff). */
const activityEventOutput = z.object({
  /** Entries are ordered by (occurred_at, id), newest first. */
  id: z.string(),
  occurred_at: z.date(),
  client_id: z.string().nullable(),
  client_label: z.string().nullable(),
  actor_role: z.enum(["client", "admin", "system"]),
  actor_label: z.string(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /**
   * In a client's own trail: false for what another of the account's people did (actor_label is
   * then their name); absent for the viewer's own events and in the firm's view.
   */
  by_you: z.boolean().optional(),
});
export type ActivityEventItem = z.infer<typeof activityEventOutput>;

/** The firm's choice of how a client's own trail names the firm's staff (docs/security.md, "Round 3 (issue 28)"). */
export const activitySettingsOutput = z.object({
  /** Off: "Your firm". On: the staff member's display name. Never their login name. */
  staff_names_for_clients: z.boolean(),
});
export const updateActivitySettingsInput = z.object({
  staff_names_for_clients: z.boolean({ error: "staff_names_for_clients must be true or false" }),
});
export type ActivitySettings = z.infer<typeof activitySettingsOutput>;

/** A keyset page: `next_cursor` is passed back as `cursor` for the next (older) page; null on the last. */
export const activityPageOutput = z.object({ items: z.array(activityEventOutput), next_cursor: z.string().nullable() });
export type ActivityPage = z.infer<typeof activityPageOutput>;

/** Opaque to callers: the position (occurred_at and id) of the last entry of the previous page. */
const cursorSchema = z
  .string()
  .max(100, "cursor is not valid")
  .regex(/^[0-9A-Za-z:._-]+$/, "cursor is not valid");
const limitSchema = z.coerce.number().int().min(1, "limit must be 1 to 200").max(200, "limit must be 1 to 200").default(50);

/** The client's own account's events. */
export const ownActivityInput = z.object({ limit: limitSchema, cursor: cursorSchema.optional() });
export type OwnActivityInput = z.infer<typeof ownActivityInput>;

// JavaScript dates reach 275760 AD and 271821 BC; timestamptz and its drivers do not all follow (the
// embedded database refuses year 0 and years past 9999 as sent), so a date the trail could never
// hold is refused here, before the CSV export's 200 goes out (decisions.md, "The specification's contract again (issue 29)").
const EARLIEST_TRAIL_DATE = new Date("1970-01-01T00:00:00.000Z");
const LATEST_TRAIL_DATE = new Date("9999-12-31T23:59:59.999Z");

export function trailDate(field: "from" | "to") {
  return z.coerce
    .date({ error: `${field} must be a date` })
    .min(EARLIEST_TRAIL_DATE, `${field} must be a date from 1970 to 9999`)
    .max(LATEST_TRAIL_DATE, `${field} must be a date from 1970 to 9999`);
}

/** The firm's view: every event, narrowed by client, the person who acted, action and a date range (`from` inclusive, `to` exclusive). */
export const adminActivityInput = ownActivityInput.extend({
  client_id: idSchema.optional(),
  /** One person's events: a staff member's (or a client's own). */
  actor_id: z.uuid("actor_id must be a user id").optional(),
  action: z.enum(ACTIVITY_ACTIONS, { error: "action is not a recorded action" }).optional(),
  from: trailDate("from").optional(),
  to: trailDate("to").optional(),
});
export type AdminActivityInput = z.infer<typeof adminActivityInput>;
