import { type Insertable, sql, type Updateable } from "kysely";
import { ADMIN_IDLE_MS } from "../../auth/session.ts";
import type { Db, EmailChangesTable, PasskeysTable, SessionsTable } from "../../db/types.ts";
import type { Language } from "../auth/schemas.ts";

/** What the settings need of the user that the session does not carry. */
export async function findCredentials(db: Db, userId: string) {
  return db.selectFrom("users").select(["password_hash", "session_epoch", "email_verified_at"]).where("id", "=", userId).executeTakeFirst();
}

export async function setUserName(db: Db, userId: string, name: string): Promise<void> {
  await db.updateTable("users").set({ name }).where("id", "=", userId).execute();
}

export async function setUserLanguage(db: Db, userId: string, language: Language): Promise<void> {
  await db.updateTable("users").set({ language }).where("id", "=", userId).execute();
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

/** Passkeys added with a bare session, before fresh proofs were asked (they go with the old password). */
export async function deleteUnprovenPasskeys(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("passkeys").where("user_id", "=", userId).where("proven", "=", false).execute();
}

/** Stops the unconfirmed change its cancel link names; undefined when there is none. */
export async function deleteUnconfirmedEmailChange(db: Db, cancelTokenHash: string) {
  return db
    .deleteFrom("email_changes")
    .where("cancel_token_hash", "=", cancelTokenHash)
    .where("confirmed_at", "is", null)
    .returning("id")
    .executeTakeFirst();
}

/** Moves the account to the change's new (now verified) address; false when the address changed since. */
export async function moveEmail(db: Db, change: { user_id: string; old_email: string; new_email: string }, now: Date): Promise<boolean> {
  const moved = await db
    .updateTable("users")
    .set({ email: change.new_email, email_verified_at: now })
    .where("id", "=", change.user_id)
    .where("email", "=", change.old_email)
    .executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}

export async function findKnownSignIn(db: Db, signInId: string) {
  return db.selectFrom("known_sign_ins").select(["browser", "ip", "first_seen_at"]).where("id", "=", signInId).executeTakeFirst();
}

const emailChangeColumns = ["id", "user_id", "old_email", "old_email_verified", "new_email"] as const;

/** A change still waiting for its link to the new address (neither confirmed nor voided). */
export async function findUnconfirmedEmailChange(db: Db, changeId: string) {
  return db.selectFrom("email_changes").select(emailChangeColumns).where("id", "=", changeId).where("confirmed_at", "is", null).executeTakeFirst();
}

export async function findConfirmedEmailChange(db: Db, changeId: string) {
  return db
    .selectFrom("email_changes")
    .select(emailChangeColumns)
    .where("id", "=", changeId)
    .where("confirmed_at", "is not", null)
    .executeTakeFirst();
}

/** Stores the hash of a link's token as its mail goes out, while the change still waits. */
export async function setEmailChangeTokens(
  db: Db,
  changeId: string,
  tokens: Pick<Updateable<EmailChangesTable>, "token_hash" | "expires_at" | "cancel_token_hash">,
): Promise<void> {
  await db.updateTable("email_changes").set(tokens).where("id", "=", changeId).where("confirmed_at", "is", null).execute();
}

/** A new key for the user's app, replacing one never confirmed; false when the app is already on. */
export async function storeUnconfirmedTotp(db: Db, key: { userId: string; secret: string; now: Date }): Promise<boolean> {
  const { userId, secret, now } = key;
  const stored = await db
    .insertInto("totp_credentials")
    .values({ user_id: userId, secret, enabled_at: null, last_used_step: null, created_at: now })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({ secret, last_used_step: null, created_at: now }).where("totp_credentials.enabled_at", "is", null),
    )
    .returning("user_id")
    .executeTakeFirst();
  return stored !== undefined;
}

/** Turns on the key set up last, if it is still that key and not on yet. */
export async function enableTotpCredential(db: Db, key: { userId: string; secret: string; step: number; now: Date }): Promise<boolean> {
  const enabled = await db
    .updateTable("totp_credentials")
    .set({ enabled_at: key.now, last_used_step: key.step })
    .where("user_id", "=", key.userId)
    .where("enabled_at", "is", null)
    .where("secret", "=", key.secret)
    .executeTakeFirst();
  return enabled.numUpdatedRows > 0n;
}

/** The app's key and the backup codes. */
export async function deleteTwoFactor(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("totp_credentials").where("user_id", "=", userId).execute();
  await db.deleteFrom("backup_codes").where("user_id", "=", userId).execute();
}

export async function listPasskeyCredentials(db: Db, userId: string) {
  return db.selectFrom("passkeys").select(["credential_id", "transports"]).where("user_id", "=", userId).execute();
}

export async function insertPasskey(db: Db, passkey: Insertable<PasskeysTable>) {
  return db.insertInto("passkeys").values(passkey).returning(["id", "name", "created_at", "last_used_at"]).executeTakeFirstOrThrow();
}

export async function markSessionProven(db: Db, sessionId: string, proven: Pick<Updateable<SessionsTable>, "proven_at" | "second_factor_proven_at">) {
  await db.updateTable("sessions").set(proven).where("id", "=", sessionId).execute();
}

export async function findSessionProofs(db: Db, sessionId: string) {
  return db.selectFrom("sessions").select(["proven_at", "second_factor_proven_at"]).where("id", "=", sessionId).executeTakeFirst();
}
