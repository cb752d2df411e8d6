// After Google vouches for an identity: find or create the account, then hand the browser a
// one-time login code (decisions.md, Google sign-in). The code travels in the URL fragment of
// /profile, so it is short-lived (60 s), single use and stored only as its SHA-256.
import { TRPCError } from "@trpc/server";
import { type Kysely, sql, type Transaction } from "kysely";
import { generateToken, hashToken, invalidateUserSessions } from "../../auth/session.ts";
import type { Database } from "../../db/types.ts";
import type { Context } from "../../trpc/context.ts";
import { findUserById, insertUser, publicUserColumns } from "./queries.ts";
import { AUTHENTICATION_FAILED } from "./messages.ts";
import type { PublicUser } from "./schemas.ts";
import { type CarriedSession, startSession } from "./service.ts";

type Db = Kysely<Database> | Transaction<Database>;

export const LOGIN_CODE_MS = 60 * 1000;
const MAX_NAME_LENGTH = 100;

export type VerifiedGoogleIdentity = { subject: string; email: string; name: string | null };

/** Why an identity cannot sign in; the browser only ever hears "Authentication failed". */
export class ExternalSignInRefused extends Error {}

/**
 * The account of a Google identity: the one already linked to its subject, else the account with
 * its (verified) email, which gets linked (losing any password and sessions), else a new account
 * without a password.
 */
export async function findOrCreateGoogleUser(db: Kysely<Database>, identity: VerifiedGoogleIdentity): Promise<PublicUser> {
  const existing = await findOrLinkGoogleUser(db, identity);
  if (existing) return existing;
  try {
    return await insertUser(db, {
      username: null,
      email: identity.email,
      name: (identity.name ?? identity.email.split("@")[0] ?? identity.email).slice(0, MAX_NAME_LENGTH),
      password_hash: null,
      auth_provider: "google",
      google_subject: identity.subject,
    });
  } catch (err) {
    // A parallel first sign-in (or registration) took the subject or email first: use that account.
    if ((err as { code?: string }).code !== "23505") throw err;
    const raced = await findOrLinkGoogleUser(db, identity);
    if (!raced) throw err;
    return raced;
  }
}

async function findOrLinkGoogleUser(db: Kysely<Database>, identity: VerifiedGoogleIdentity): Promise<PublicUser | undefined> {
  return db.transaction().execute(async (trx) => {
    const bySubject = await trx
      .selectFrom("users")
      .select(publicUserColumns)
      .where("google_subject", "=", identity.subject)
      .executeTakeFirst();
    if (bySubject) return bySubject;

    const byEmail = await trx
      .selectFrom("users")
      .select([...publicUserColumns, "google_subject"])
      .where(sql<string>`lower(email)`, "=", identity.email.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!byEmail) return undefined;
    // The address now belongs to a different Google account than the one linked: never re-link.
    if (byEmail.google_subject !== null) {
      throw new ExternalSignInRefused("the email belongs to an account linked to another Google identity");
    }
    // Registration never proves email ownership, so a password set before this link may be an
    // attacker's who registered the address first. Google has now verified the owner: that
    // password and every session it opened end here (the owner can set a password by email reset).
    await trx
      .updateTable("users")
      .set({ google_subject: identity.subject, password_hash: null })
      .where("id", "=", byEmail.id)
      .execute();
    await invalidateUserSessions(trx, byEmail.id);
    const { google_subject: _subject, ...user } = byEmail;
    return user;
  });
}

export async function createLoginCode(db: Db, userId: string, now: Date): Promise<string> {
  const code = generateToken();
  await db.deleteFrom("login_codes").where("user_id", "=", userId).where("expires_at", "<=", now).execute();
  await db
    .insertInto("login_codes")
    .values({ code_hash: hashToken(code), user_id: userId, expires_at: new Date(now.getTime() + LOGIN_CODE_MS), created_at: now })
    .execute();
  return code;
}

/** Deleting the row is the redemption, so of any number of parallel attempts exactly one wins. */
async function redeemLoginCode(db: Db, code: string, now: Date): Promise<string | null> {
  const row = await db
    .deleteFrom("login_codes")
    .where("code_hash", "=", hashToken(code))
    .returning(["user_id", "expires_at"])
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= now.getTime()) return null;
  return row.user_id;
}

/** `auth.profile`: exchanges the one-time code from /profile for a client session and its cookie. */
export async function completeExternalSignIn(ctx: Context & CarriedSession, sessionId: string): Promise<{ success: true }> {
  const userId = await redeemLoginCode(ctx.db, sessionId, ctx.now());
  const user = userId ? await findUserById(ctx.db, userId) : undefined;
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: AUTHENTICATION_FAILED });
  await startSession(ctx, user, "client");
  return { success: true };
}
