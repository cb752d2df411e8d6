// Responding to an incident (docs/safeguards.md, "314.4(h) Incident response plan, and 314.4(j) notifying the FTC"): the owner ends every
// session at once, and the firm reads who accessed what in a window of time.
import type { FirmContext } from "../../trpc/context.ts";
import type { ActivityFilters } from "../activity/queries.ts";
import { type ActivityAction, recordActivity } from "../activity/record.ts";
import { endEverySessionBut } from "./queries.ts";
import type { AccessLogInput, EndAllSessionsResult } from "./schemas.ts";

/** What the access log lists: who signed in (or tried), and who opened, downloaded or exported what. */
export const ACCESS_ACTIONS: readonly ActivityAction[] = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "document.download",
  "document.preview",
  "account.export",
  "security.access_log",
];

/**
 * Every session of every user ends, clients and staff alike, the owner's other sessions too; the
 * session that asks is kept, so the owner can go on (change passwords, read the access log) and
 * sign out when done. Written in the trail in the same transaction.
 */
export async function endAllSessions(ctx: FirmContext): Promise<EndAllSessionsResult> {
  const ended = await ctx.db.transaction().execute(async (tx) => {
    const counts = await endEverySessionBut(tx, ctx.session.id);
    await recordActivity(tx, ctx, {
      action: "security.end_all_sessions",
      client: null,
      detail: { sessions: counts.sessions, people: counts.people },
    });
    return counts;
  });
  ctx.logger.warn({ sessions: ended.sessions, people: ended.people, by: ctx.user.id }, "every session ended by the firm's owner");
  return { sessions_ended: ended.sessions, people_signed_out: ended.people };
}

/**
 * The access log's filters for the caller (the accounts they reach, as the activity trail's), and
 * its download in the trail: reading who accessed what is itself an access.
 */
export async function accessLogFilters(ctx: FirmContext, input: AccessLogInput): Promise<ActivityFilters> {
  await recordActivity(ctx.db, ctx, {
    action: "security.access_log",
    client: null,
    detail: { from: input.from.toISOString(), to: input.to.toISOString() },
  });
  return { scope: ctx.firmScope, actions: ACCESS_ACTIONS, from: input.from, to: input.to };
}
