// After Google vouches for an identity: find or create the account, then hand the browser a
// one-time login code (docs/decisions.md, Google sign-in). The code travels in the URL fragment of
// /profile, so it is short-lived (60 s), single use and stored only as its SHA-256.
import { TRPCError } from "@trpc/server";
import { type Kysely, sql } from "kysely";
import type { ActivityActorContext } from "../activity/record.ts";
import { voidEarlierHolder } from "../../auth/mailbox-proof.ts";
import { createTwoFactorChallenge, type ChallengePurpose } from "../../auth/second-factor.ts";
import { generateToken, hashToken, invalidateUserSessions } from "../../auth/session.ts";
import type { Database, Db } from "../../db/types.ts";
import type { Context } from "../../trpc/context.ts";
import { acceptOpenInvitationFor, admitGoogleAccount } from "../invitations/accept.ts";
import {
  deleteExpiredLoginCodes,
  findSessionEpoch,
  findUserByGoogleSubject,
  findUserById,
  insertLoginCode,
  insertUser,
  linkGoogleSubject,
  lockUserByEmailForGoogle,
  takeLoginCode,
} from "./queries.ts";
import { AUTHENTICATION_FAILED } from "./messages.ts";
import type { PublicUser } from "./schemas.ts";
import { type CarriedSession, finishSignIn, secondStep } from "./service.ts";

export const LOGIN_CODE_MS = 60 * 1000;
const MAX_NAME_LENGTH = 100;

type VerifiedGoogleIdentity = { subject: string; email: string; name: string | null };

/** Why an identity cannot sign in; the browser only ever hears "Authentication failed". */
export class ExternalSignInRefused extends Error {}

/**
 * The account of a Google identity: the one already linked to its subject, else the account with
 * its (verified) email, which gets linked (losing any password and sessions), else a new account
 * without a password, which accepts an open invitation to the address and, when the firm takes
 * clients by invitation only, needs one (GoogleSignUpRefused). `request` is who acts, for the trail.
 */
export async function findOrCreateGoogleUser(
  db: Kysely<Database>,
  identity: VerifiedGoogleIdentity,
  request: ActivityActorContext = { now: () => new Date() },
): Promise<PublicUser> {
  const existing = await findOrLinkGoogleUser(db, identity, request);
  if (existing) return existing;
  try {
    return await db.transaction().execute((tx) =>
      admitGoogleAccount(tx, request, identity.email, () =>
        insertUser(tx, {
          username: null,
          email: identity.email,
          name: googleName(identity),
          password_hash: null,
          auth_provider: "google",
          google_subject: identity.subject,
          email_verified_at: sql<Date>`now()`,
        }),
      ),
    );
  } catch (err) {
    // A parallel first sign-in (or registration) took the subject or email first: use that account.
    if ((err as { code?: string }).code !== "23505") throw err;
    const raced = await findOrLinkGoogleUser(db, identity, request);
    if (!raced) throw err;
    return raced;
  }
}

function googleName(identity: VerifiedGoogleIdentity): string {
  return (identity.name ?? identity.email.split("@")[0] ?? identity.email).slice(0, MAX_NAME_LENGTH);
}

async function findOrLinkGoogleUser(
  db: Kysely<Database>,
  identity: VerifiedGoogleIdentity,
  request: ActivityActorContext,
): Promise<PublicUser | undefined> {
  return db.transaction().execute(async (trx) => {
    const bySubject = await findUserByGoogleSubject(trx, identity.subject);
    if (bySubject) return bySubject;

    const byEmail = await lockUserByEmailForGoogle(trx, identity.email);
    if (!byEmail) return undefined;
    // The address now belongs to a different Google account than the one linked: never re-link.
    if (byEmail.google_subject !== null) {
      throw new ExternalSignInRefused("the email belongs to an account linked to another Google identity");
    }
    // Registration never proves email ownership, so a password set before this link may be an
    // attacker's who registered the address first. Google has now verified the owner: that
    // password and every session it opened end here (the owner can set a password by email reset).
    // So does a name nobody proved to be the owner's: the firm's mail greets the owner by it from
    // now on, so it becomes the one Google knows.
    // An address never proven before is taken over whole: the passkeys, second factor, trusted
    // browsers and pending email change of whoever registered it go too (mailbox-proof.ts).
    const name = byEmail.email_verified ? byEmail.name : googleName(identity);
    if (!byEmail.email_verified && !byEmail.is_admin) await voidEarlierHolder(trx, byEmail.id);
    await linkGoogleSubject(trx, byEmail.id, { subject: identity.subject, name });
    await invalidateUserSessions(trx, byEmail.id);
    const { google_subject: _subject, ...rest } = byEmail;
    const user = { ...rest, name, email_verified: true };
    if (!byEmail.email_verified && !byEmail.is_admin) await acceptOpenInvitationFor(trx, request, user);
    return user;
  });
}

/**
 * A one-time code for the browser that finished the sign-in: `browserSecret` is the value of the
 * cookie set in that browser's callback answer, so a code carried to another browser (an attacker
 * who stops at the redirect and sends the link to a victim) is worthless there. The code also keeps
 * the user's session epoch as of now, so a password reset before it is redeemed voids it.
 */
export async function createLoginCode(db: Db, userId: string, browserSecret: string, now: Date): Promise<string> {
  const code = generateToken();
  await deleteExpiredLoginCodes(db, userId, now);
  await insertLoginCode(db, {
    codeHash: hashToken(code),
    userId,
    expiresAt: new Date(now.getTime() + LOGIN_CODE_MS),
    createdAt: now,
    browserHash: hashToken(browserSecret),
  });
  return code;
}

/**
 * For an account with a second factor (or one it must enrol first): a challenge for the page that
 * asks for it, bound like the login code to the browser that finished the sign-in, instead of a
 * session. Null when the account has no second step.
 */
export async function googleSecondStep(
  db: Db,
  user: { id: string; is_admin: boolean },
  browserSecret: string,
  now: Date,
): Promise<{ step: ChallengePurpose; challenge: string } | null> {
  const step = await secondStep({ db }, user);
  if (!step) return null;
  const sessionEpoch = await findSessionEpoch(db, user.id);
  const challenge = await createTwoFactorChallenge(db, { userId: user.id, purpose: step, kind: "client", sessionEpoch, browserSecret }, now);
  return { step, challenge };
}

/** Deleting the row is the redemption, so of any number of parallel attempts exactly one wins. */
async function redeemLoginCode(db: Db, code: string, browserSecret: string | null, now: Date) {
  const row = await takeLoginCode(db, hashToken(code));
  if (!row || row.expires_at.getTime() <= now.getTime()) return null;
  if (!browserSecret || row.browser_hash !== hashToken(browserSecret)) return null;
  return row;
}

/** `auth.profile`: exchanges the one-time code from /profile for a client session and its cookie. */
export async function completeExternalSignIn(ctx: Context & CarriedSession, sessionId: string): Promise<{ success: true }> {
  const code = await redeemLoginCode(ctx.db, sessionId, ctx.signInBrowserSecret, ctx.now());
  const user = code ? await findUserById(ctx.db, code.user_id) : undefined;
  if (!code || !user) throw new TRPCError({ code: "UNAUTHORIZED", message: AUTHENTICATION_FAILED });
  try {
    await finishSignIn(ctx, user, "client", { sessionEpoch: code.session_epoch });
  } catch (err) {
    if (err instanceof TRPCError && err.code === "UNAUTHORIZED") {
      throw new TRPCError({ code: "UNAUTHORIZED", message: AUTHENTICATION_FAILED });
    }
    throw err;
  }
  return { success: true };
}
