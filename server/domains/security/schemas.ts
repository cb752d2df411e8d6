import { z } from "zod";
import { trailDate } from "../activity/schemas.ts";

/**
 * Ending every session is asked for in so many words: a request without `confirm: true` (an empty
 * body, a script calling every path) ends nothing.
 */
export const endAllSessionsInput = z.object({
  confirm: z.literal(true, { error: "confirm must be true: this signs out every user of the portal" }),
});

export const endAllSessionsOutput = z.object({
  /** Sessions ended: every session of every user, clients and staff, but the one that asked. */
  sessions_ended: z.number().int(),
  /** People who had at least one of them. */
  people_signed_out: z.number().int(),
});
export type EndAllSessionsResult = z.infer<typeof endAllSessionsOutput>;

/** The window of the access log: `from` inclusive, `to` exclusive, both required. */
export const accessLogInput = z
  .object({ from: trailDate("from"), to: trailDate("to") })
  .refine((input) => input.to.getTime() > input.from.getTime(), { message: "to must be after from", path: ["to"] });
export type AccessLogInput = z.infer<typeof accessLogInput>;
