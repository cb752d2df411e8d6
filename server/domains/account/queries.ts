import { sql } from "kysely";
import { ADMIN_IDLE_MS } from "../../auth/session.ts";
import type { Db } from "../../db/types.ts";

/** What the settings need of the user that the session does not carry. */
export async function findCredentials(db: Db, userId: string) {
  return db.selectFrom("users").select(["password_hash", "session_epoch", "email_verified_at"]).where("id", "=", userId).executeTakeFirst();
}

export async function setUserName(db: Db, userId: string, name: string): Promise<void> {
  await db.updateTable("users").set({ name }).where("id", "=", userId).execute();
}

/** The user's live sessions (not expired, admin ones not idle too long), most recently used first; `current` marks `currentSessionId`. */
export async function listSessions(db: Db, userId: string, currentSessionId: string, now: Date) {
  return db
    .selectFrom("sessions")
    .select(["public_id", "kind", "created_at", "last_used_at", "ip", "user_agent", sql<boolean>`id = ${currentSessionId}`.as("current")])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now)
    .where((eb) => eb.or([eb("kind", "=", "client"), eb("last_used_at", ">", new Date(now.getTime() - ADMIN_IDLE_MS))]))
    .orderBy("last_used_at", "desc")
    .orderBy("created_at", "desc")
    .execute();
}

/** Deletes one of the user's sessions by its public id; the token hash it had, or undefined when it is not theirs. */
export async function deleteSessionByPublicId(db: Db, userId: string, publicId: string) {
  return db.deleteFrom("sessions").where("public_id", "=", publicId).where("user_id", "=", userId).returning("id").executeTakeFirst();
}

export async function sessionCreatedAt(db: Db, sessionId: string): Promise<Date | undefined> {
  const row = await db.selectFrom("sessions").select("created_at").where("id", "=", sessionId).executeTakeFirst();
  return row?.created_at;
}

/** A request to move the account to `newEmail`, replacing any unconfirmed one; its link is made when the mail goes out. */
export async function insertEmailChange(
  db: Db,
  change: { user_id: string; old_email: string; old_email_verified: boolean; new_email: string; created_at: Date },
): Promise<string> {
  await db.deleteFrom("email_changes").where("user_id", "=", change.user_id).where("confirmed_at", "is", null).execute();
  const row = await db.insertInto("email_changes").values(change).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function findPendingEmailChange(db: Db, userId: string, now: Date) {
  return db
    .selectFrom("email_changes")
    .select(["new_email"])
    .where("user_id", "=", userId)
    .where("confirmed_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

/** Redeeming marks the row confirmed and forgets the token, in one statement: of parallel attempts one wins. */
export async function takeEmailChange(db: Db, tokenHash: string, now: Date) {
  return db
    .updateTable("email_changes")
    .set({ confirmed_at: now, token_hash: null })
    .where("token_hash", "=", tokenHash)
    .where("confirmed_at", "is", null)
    .returning(["id", "user_id", "old_email", "new_email", "expires_at"])
    .executeTakeFirst();
}

export async function listPasskeys(db: Db, userId: string) {
  return db
    .selectFrom("passkeys")
    .select(["id", "name", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "asc")
    .execute();
}

export async function deletePasskeyOf(db: Db, userId: string, passkeyId: string) {
  return db.deleteFrom("passkeys").where("id", "=", passkeyId).where("user_id", "=", userId).returning("id").executeTakeFirst();
}

export const REQUIRE_CLIENT_TWO_FACTOR = "require_client_two_factor";

export async function clientTwoFactorRequired(db: Db): Promise<boolean> {
  const row = await db.selectFrom("firm_settings").select("value").where("key", "=", REQUIRE_CLIENT_TWO_FACTOR).executeTakeFirst();
  return row?.value === "true";
}

export async function setClientTwoFactorRequired(db: Db, required: boolean, now: Date): Promise<void> {
  const value = String(required);
  await db
    .insertInto("firm_settings")
    .values({ key: REQUIRE_CLIENT_TWO_FACTOR, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
}
