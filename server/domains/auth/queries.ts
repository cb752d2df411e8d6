import { accountsLeftWithoutContactsForFirm, deleteAccountsForFirm } from "../accounts/queries.ts";
import { heldAccountIds, signedRecordsKeptUntil } from "../retention/queries.ts";
import { type Expression, sql, type Transaction } from "kysely";
import { tableCounts } from "../../db/row-counts.ts";
import { containsPattern, type PageWindow } from "../../db/search.ts";
import type { Database, Db } from "../../db/types.ts";
import type { PublicUser } from "./schemas.ts";
import { type FirmScope, personInFirmScope } from "../../trpc/firm-scope.ts";

const publicUserColumns = [
  "id",
  "name",
  "email",
  "username",
  "auth_provider",
  "created_at",
  "is_admin",
  sql<boolean>`email_verified_at is not null`.as("email_verified"),
  "language",
] as const;

/**
 * The account a login names: by username, or by email when the name has an `@` (usernames cannot),
 * so people who signed up with Google and later set a password can sign in too.
 */
export async function findUserForLogin(db: Db, login: string) {
  const column = login.includes("@") ? sql<string>`lower(email)` : sql<string>`lower(username)`;
  return db
    .selectFrom("users")
    .select([...publicUserColumns, "password_hash", "session_epoch", sql<boolean>`deactivated_at is not null`.as("deactivated")])
    .where(column, "=", login.toLowerCase())
    .executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom("users")
    .select(publicUserColumns)
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<PublicUser | undefined> {
  return db.selectFrom("users").select(publicUserColumns).where("id", "=", id).executeTakeFirst();
}

/** Which of username and email is already taken, ignoring case; `claimedUserId`'s own do not count (an account being claimed). */
export async function findTakenIdentity(db: Db, username: string, email: string, claimedUserId?: string) {
  let query = db
    .selectFrom("users")
    .select([sql<boolean>`lower(username) = ${username.toLowerCase()}`.as("username_taken")])
    .where((eb) => eb.or([eb(sql<string>`lower(username)`, "=", username.toLowerCase()), eb(sql<string>`lower(email)`, "=", email.toLowerCase())]));
  if (claimedUserId) query = query.where("id", "!=", claimedUserId);
  const rows = await query.execute();
  if (rows.length === 0) return null;
  return rows.some((r) => r.username_taken) ? "username" : "email";
}

export async function insertUser(
  db: Db,
  user: {
    username: string | null;
    email: string;
    name: string;
    password_hash: string | null;
    auth_provider?: string;
    is_admin?: boolean;
    google_subject?: string | null;
    email_verified_at?: Date | Expression<Date>;
  },
): Promise<PublicUser> {
  return db.insertInto("users").values(user).returning(publicUserColumns).executeTakeFirstOrThrow();
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
}

/** A new reset request replaces any older token of the same user (docs/decisions.md, Password reset). */
export async function replacePasswordResetToken(db: Db, token: { token_hash: string; user_id: string; expires_at: Date; created_at: Date }) {
  await db.deleteFrom("password_reset_tokens").where("user_id", "=", token.user_id).execute();
  await db.insertInto("password_reset_tokens").values(token).execute();
}

export async function findPasswordResetToken(db: Db, tokenHash: string) {
  return db.selectFrom("password_reset_tokens").select(["user_id", "expires_at"]).where("token_hash", "=", tokenHash).executeTakeFirst();
}

/** Deleting is the redemption: of several concurrent attempts exactly one gets the row back. */
export async function takePasswordResetToken(db: Db, tokenHash: string) {
  return db.deleteFrom("password_reset_tokens").where("token_hash", "=", tokenHash).returning(["user_id", "expires_at"]).executeTakeFirst();
}

export async function deletePasswordResetTokens(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("password_reset_tokens").where("user_id", "=", userId).execute();
}

/** A newer link replaces any older one of the same user, as reset tokens do. */
export async function replaceEmailVerificationToken(
  db: Db,
  token: { token_hash: string; user_id: string; email: string; expires_at: Date; created_at: Date },
): Promise<void> {
  await db.deleteFrom("email_verification_tokens").where("user_id", "=", token.user_id).execute();
  await db.insertInto("email_verification_tokens").values(token).execute();
}

/** Deleting is the redemption: of several concurrent attempts exactly one gets the row back. */
export async function takeEmailVerificationToken(db: Db, tokenHash: string) {
  return db
    .deleteFrom("email_verification_tokens")
    .where("token_hash", "=", tokenHash)
    .returning(["user_id", "email", "expires_at"])
    .executeTakeFirst();
}

/**
 * Marks the user's address verified (keeping an earlier time) if it is still `email` when given,
 * and drops the user's outstanding links. False when the address has changed since.
 */
export async function markEmailVerified(db: Db, userId: string, now: Date, email?: string): Promise<boolean> {
  let update = db
    .updateTable("users")
    .set({ email_verified_at: sql<Date>`coalesce(email_verified_at, ${now})` })
    .where("id", "=", userId);
  if (email !== undefined) update = update.where(sql<string>`lower(email)`, "=", email.toLowerCase());
  const result = await update.executeTakeFirst();
  await deleteEmailVerificationTokens(db, userId);
  return result.numUpdatedRows > 0n;
}

export async function deleteEmailVerificationTokens(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("email_verification_tokens").where("user_id", "=", userId).execute();
}

function matchingUsers(db: Db, scope: FirmScope, q: string | undefined) {
  // Staff who reach only assigned accounts see those accounts' people (firm-scope.ts).
  const query = db.selectFrom("users").where(personInFirmScope(scope, "users.id"));
  if (!q) return query;
  const pattern = containsPattern(q);
  return query.where((eb) => eb.or([eb("name", "ilike", pattern), eb("email", "ilike", pattern), eb("username", "ilike", pattern)]));
}

/** Newest first; `q` matches name, email or username. */
export function userRows(db: Db, scope: FirmScope, page: PageWindow) {
  return matchingUsers(db, scope, page.q)
    .select(publicUserColumns)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function listUsers(db: Db, scope: FirmScope, page: PageWindow) {
  const [items, count] = await Promise.all([
    userRows(db, scope, page),
    page.q || !scope.all
      ? matchingUsers(db, scope, page.q)
          .select(sql<number>`count(*)::int`.as("total"))
          .executeTakeFirstOrThrow()
      : tableCounts(db, ["users"]).then((c) => ({ total: c.users })),
  ]);
  return { items, total: count.total };
}

/** Locks the user row, so no upload can add a document (its foreign key waits) until we commit. */
export async function lockUser(db: Transaction<Database>, id: string) {
  return db.selectFrom("users").select(["id", "is_admin", "username", "email"]).where("id", "=", id).forUpdate().executeTakeFirst();
}

/**
 * The accounts a person is the last contact of, locked (as an upload locks its account, so none
 * adds a document, and no legal hold is placed, until the transaction ends): which of them are
 * under a legal hold, which (of the others) keep signed records and until when, and the free rest.
 * Held and retained accounts stay without people (migration 2026-12-07T0200).
 */
export async function lockAccountsLeftBy(
  db: Transaction<Database>,
  userId: string,
): Promise<{ free: string[]; held: string[]; retained: { id: string; until: Date }[] }> {
  const accounts = await accountsLeftWithoutContactsForFirm(db, userId);
  if (accounts.length === 0) return { free: [], held: [], retained: [] };
  await db.selectFrom("accounts").select("id").where("id", "in", accounts).forUpdate().execute();
  const held = await heldAccountIds(db, accounts);
  const unheld = accounts.filter((id) => !held.includes(id));
  const kept = await signedRecordsKeptUntil(db, unheld);
  return {
    free: unheld.filter((id) => !kept.has(id)),
    held,
    retained: [...kept].map(([id, until]) => ({ id, until })),
  };
}

/**
 * Everything a person owns, children before parents: `accounts` (lockAccountsLeftBy's free ones)
 * go with them, their data first (an account another person still reaches stays; docs/decisions.md,
 * "Client accounts (issue 32)"; a held one stays too, without people, migration 2026-11-27T0200, and
 * so does one keeping signed records, migration 2026-12-07T0200).
 * The foreign keys would cascade too; deleting explicitly keeps the order visible and answers the
 * stored files to remove.
 */
export async function deleteUserData(db: Transaction<Database>, userId: string, accounts: readonly string[]): Promise<{ storage_key: string }[]> {
  if (accounts.length === 0) {
    await deletePersonRows(db, userId);
    return [];
  }
  const documents = await db.deleteFrom("documents").where("account_id", "in", accounts).returning("storage_key").execute();
  // Folders reference each other; one statement removes the whole tree at once.
  await db.deleteFrom("folders").where("account_id", "in", accounts).execute();
  await deleteAccountsForFirm(db, accounts);
  await deletePersonRows(db, userId);
  return documents;
}

async function deletePersonRows(db: Transaction<Database>, userId: string): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("password_reset_tokens").where("user_id", "=", userId).execute();
  await db.deleteFrom("login_codes").where("user_id", "=", userId).execute();
  await db.deleteFrom("users").where("id", "=", userId).execute();
}

// Google sign-in (external-sign-in.ts).

export async function findUserByGoogleSubject(db: Db, subject: string): Promise<PublicUser | undefined> {
  return db.selectFrom("users").select(publicUserColumns).where("google_subject", "=", subject).executeTakeFirst();
}

/** The account with the address (any case), locked while Google's identity is linked to it. */
export async function lockUserByEmailForGoogle(tx: Transaction<Database>, email: string) {
  return tx
    .selectFrom("users")
    .select([...publicUserColumns, "google_subject"])
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .forUpdate()
    .executeTakeFirst();
}

/** Links the Google identity, ending the password; Google has verified the address. */
export async function linkGoogleSubject(db: Db, userId: string, link: { subject: string; name: string }): Promise<void> {
  await db
    .updateTable("users")
    .set({ google_subject: link.subject, password_hash: null, name: link.name, email_verified_at: sql<Date>`coalesce(email_verified_at, now())` })
    .where("id", "=", userId)
    .execute();
}

export async function findSessionEpoch(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom("users").select("session_epoch").where("id", "=", userId).executeTakeFirstOrThrow();
  return row.session_epoch;
}

export async function deleteExpiredLoginCodes(db: Db, userId: string, now: Date): Promise<void> {
  await db.deleteFrom("login_codes").where("user_id", "=", userId).where("expires_at", "<=", now).execute();
}

/** The code keeps the user's session epoch as it is when the code is written (none if the user is gone). */
export async function insertLoginCode(
  db: Db,
  code: { codeHash: string; userId: string; expiresAt: Date; createdAt: Date; browserHash: string },
): Promise<void> {
  await db
    .insertInto("login_codes")
    .columns(["code_hash", "user_id", "expires_at", "created_at", "session_epoch", "browser_hash"])
    .expression((eb) =>
      eb
        .selectFrom("users")
        .select([
          eb.val(code.codeHash).as("code_hash"),
          "id as user_id",
          eb.cast<Date>(eb.val(code.expiresAt), "timestamptz").as("expires_at"),
          eb.cast<Date>(eb.val(code.createdAt), "timestamptz").as("created_at"),
          "session_epoch",
          eb.val(code.browserHash).as("browser_hash"),
        ])
        .where("id", "=", code.userId),
    )
    .execute();
}

/** Deletes the code and returns it: of any number of parallel redemptions exactly one gets it. */
export async function takeLoginCode(db: Db, codeHash: string) {
  return db
    .deleteFrom("login_codes")
    .where("code_hash", "=", codeHash)
    .returning(["user_id", "expires_at", "session_epoch", "browser_hash"])
    .executeTakeFirst();
}

/** Every passkey of the user; answers how many went. */
export async function deletePasskeys(db: Db, userId: string): Promise<number> {
  const removed = await db.deleteFrom("passkeys").where("user_id", "=", userId).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

/** The user as the trail names one acting without a session (a password reset's link). */
export async function findActingUser(db: Db, userId: string) {
  return db.selectFrom("users").select(["id", "username", "email", "is_admin"]).where("id", "=", userId).executeTakeFirstOrThrow();
}

/** The passkey a sign-in presents, with its owner's session epoch. */
export async function findPasskeyForSignIn(db: Db, credentialId: string) {
  return db
    .selectFrom("passkeys")
    .innerJoin("users", "users.id", "passkeys.user_id")
    .select([
      "passkeys.id",
      "passkeys.user_id",
      "passkeys.credential_id",
      "passkeys.public_key",
      "passkeys.counter",
      "passkeys.transports",
      "passkeys.second_factor_proven",
      "users.session_epoch",
    ])
    .where("passkeys.credential_id", "=", credentialId)
    .executeTakeFirst();
}

export async function recordPasskeyUse(db: Db, passkeyId: string, counter: number, now: Date): Promise<void> {
  await db.updateTable("passkeys").set({ counter, last_used_at: now }).where("id", "=", passkeyId).execute();
}

/** An unproven account taken over by the invited person: their username, name and password, the address proven. */
export async function claimUser(
  db: Db,
  userId: string,
  fields: { username: string; name: string; password_hash: string; email_verified_at: Date },
): Promise<PublicUser> {
  return db.updateTable("users").set(fields).where("id", "=", userId).returning(publicUserColumns).executeTakeFirstOrThrow();
}
