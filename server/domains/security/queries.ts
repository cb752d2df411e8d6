import type { Db } from "../../db/types.ts";

/**
 * Ends every session but `keptSessionId` and any sign-in under way (every user's session epoch goes
 * up first, auth/session.ts createSession), in the caller's transaction. Each deleted row notifies
 * the event streams of its session (migration 2026-11-26T0003_session_end_notices), so open
 * message streams end on every instance too.
 */
export async function endEverySessionBut(db: Db, keptSessionId: string): Promise<{ sessions: number; people: number }> {
  await db
    .updateTable("users")
    .set((eb) => ({ session_epoch: eb("session_epoch", "+", 1) }))
    .execute();
  const ended = await db.deleteFrom("sessions").where("id", "!=", keptSessionId).returning("user_id").execute();
  return { sessions: ended.length, people: new Set(ended.map((row) => row.user_id)).size };
}
