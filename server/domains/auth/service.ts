import { createAccountWithOwner } from "../accounts/queries.ts";
import { TRPCError } from "@trpc/server";
import { assertHashingRoom, COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword, passwordHasher } from "../../auth/password.ts";
import { AccountLocked, type LoginAttempt } from "../../auth/rate-limit.ts";
import { type ChallengePurpose, createTwoFactorChallenge, hasTwoFactor } from "../../auth/second-factor.ts";
import { createSession, invalidateSession, type SessionKind } from "../../auth/session.ts";
import { isGuessablePassword } from "../../auth/password-strength.ts";
import { noteSignIn, signedInBefore } from "../../auth/sign-ins.ts";
import { accountLabel, personClient, recordActivity } from "../activity/record.ts";
import type { Db } from "../../db/types.ts";
import { deviceTokens, findTrustedDevice, trustDevice } from "../../auth/trusted-devices.ts";
import type { AuthedContext, Context } from "../../trpc/context.ts";
import { clientTwoFactorRequired } from "../profile/queries.ts";
import { REGISTRATION_INVITE_ONLY } from "../invitations/messages.ts";
import { registrationMode } from "../invitations/queries.ts";
import { sendVerificationLink } from "./email-verification.ts";
import { sendAccountLockedNotice } from "./lock-notice.ts";
import { findTakenIdentity, findUserForLogin, insertUser } from "./queries.ts";
import { PASSWORD_GUESSABLE, type LoginInput, type LoginResult, type PublicUser, type RegisterInput, type SignedIn } from "./schemas.ts";

const INVALID_CREDENTIALS = "Invalid username or password";
export const USERNAME_TAKEN = "Username already exists";
export const EMAIL_TAKEN = "Email already registered";

/** `userInputs`: what the server knows of the person (username, email, name), which a password should not be built from. */
export function assertPasswordAllowed(password: string, userInputs: (string | null | undefined)[] = []): void {
  if (isCommonPassword(password)) throw new TRPCError({ code: "BAD_REQUEST", message: COMMON_PASSWORD_MESSAGE });
  if (isGuessablePassword(password, userInputs)) throw new TRPCError({ code: "BAD_REQUEST", message: PASSWORD_GUESSABLE });
}

export async function register(ctx: Context, input: RegisterInput): Promise<{ success: true }> {
  if ((await registrationMode(ctx.db)) === "invite_only") throw new TRPCError({ code: "FORBIDDEN", message: REGISTRATION_INVITE_ONLY });
  await ctx.rateLimits.consumeRegistration(ctx.ip);
  assertPasswordAllowed(input.password, [input.username, input.email, input.name]);
  const taken = await findTakenIdentity(ctx.db, input.username, input.email);
  if (taken) throw new TRPCError({ code: "CONFLICT", message: taken === "username" ? USERNAME_TAKEN : EMAIL_TAKEN });
  const passwordHash = await hashPassword(input.password);
  let user: PublicUser;
  try {
    // A self-registered client gets an individual account of their own, named after them, as its owner.
    user = await ctx.db.transaction().execute(async (tx) => {
      const person = await insertUser(tx, {
        username: input.username,
        email: input.email,
        name: input.name,
        password_hash: passwordHash,
      });
      await createAccountWithOwner(tx, { name: person.name, kind: "individual" }, person.id);
      return person;
    });
  } catch (err) {
    // Two registrations racing for the same name: the unique index decides.
    if ((err as { code?: string }).code === "23505") {
      const constraint = String((err as { constraint?: string }).constraint ?? "");
      throw new TRPCError({ code: "CONFLICT", message: constraint.includes("email") ? EMAIL_TAKEN : USERNAME_TAKEN });
    }
    throw err;
  }
  // After the answer, as the reset email is: registration answers as fast as before.
  void sendVerificationLink(ctx, user);
  return { success: true };
}

/**
 * A client that has gone gets no more work done for it: a flood of logins whose connections are
 * dropped at once costs one look-up each, and no counting or hashing.
 */
function stopIfClientGone(ctx: Context): void {
  if (ctx.clientGone()?.aborted) throw new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: "Request closed" });
}

/**
 * Password login for both portals; admin sign-in additionally needs `is_admin`. An account with a
 * second factor gets a challenge for it instead of a session, and an account that must have one
 * but has none (every admin; clients when the firm requires it) a challenge that only enrols.
 */
export async function loginWithPassword(ctx: Context & CarriedSession, input: LoginInput, kind: SessionKind): Promise<LoginResult> {
  stopIfClientGone(ctx);
  // Under a flood a full queue answers before the database is touched, and counts for nothing.
  assertHashingRoom();
  const row = await findUserForLogin(ctx.db, input.username);
  stopIfClientGone(ctx);
  // Counted per account, so its username and its email do not get a counter each.
  const account = row ? row.id : `unknown:${input.username.toLowerCase()}`;
  const devices = deviceTokens(ctx.deviceCookie.value);
  const trustedDevice = row ? await findTrustedDevice(ctx.db, devices, row.id, ctx.now()) : null;
  const attempt = await beginLoginAttempt(ctx, { account, trustedDevice }, row);
  const valid = await checkPassword(ctx, attempt, row?.password_hash ?? null, input.password);
  // A deactivated person of the firm is answered as a wrong password is: the login page tells no
  // one which accounts exist, or which were closed (docs/decisions.md, "Staff roles and rights (issue 33)").
  if (!row || !valid || row.deactivated) {
    // One insert whether or not the name matched an account, so the trail adds no timing difference.
    await recordSignInFailure(ctx, row ?? null, input.username, !row ? "unknown_account" : row.deactivated ? "deactivated" : "wrong_password");
    throw new TRPCError({ code: "UNAUTHORIZED", message: INVALID_CREDENTIALS });
  }
  const { password_hash: _hash, session_epoch: sessionEpoch, deactivated: _deactivated, ...user } = row;
  const next = await secondStep(ctx, user);
  // With a second factor still to come, a right password must not clear the failures counted so
  // far: wrong codes add up to the same lockout as wrong passwords.
  await (next === "verify" ? attempt.firstFactorPassed() : attempt.succeeded());
  if (kind === "admin" && !row.is_admin) throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  if (next === "verify") {
    const challenge = await createTwoFactorChallenge(ctx.db, { userId: user.id, purpose: "verify", kind, sessionEpoch }, ctx.now());
    return { two_factor_required: true, challenge };
  }
  if (next === "enrol") {
    const challenge = await createTwoFactorChallenge(ctx.db, { userId: user.id, purpose: "enrol", kind, sessionEpoch }, ctx.now());
    return { two_factor_setup_required: true, challenge };
  }
  return finishSignIn(ctx, user, kind, { sessionEpoch, devices, trustedDevice });
}

/**
 * A refused sign-in in the activity trail, on its own (there is no change to share a transaction
 * with): the account the name matched, if any, and the name as tried. Never the password or code.
 */
export async function recordSignInFailure(
  ctx: Context,
  account: { id: string; username: string | null; email: string; is_admin: boolean } | null,
  tried: string,
  reason: "wrong_password" | "unknown_account" | "wrong_code" | "deactivated",
): Promise<void> {
  await recordActivity(ctx.db, ctx, {
    action: "auth.sign_in_failed",
    client: account && !account.is_admin ? personClient(account) : null,
    actor: { id: account?.id ?? null, role: account?.is_admin ? "admin" : "client", label: tried.slice(0, 200) },
    detail: { reason },
  });
}

/** Counts a sign-in attempt of `account`; the owner of an account it locks is told (once per lock). */
export async function beginLoginAttempt(ctx: Context, who: { account: string; trustedDevice: string | null }, owner?: { id: string }) {
  try {
    return await ctx.rateLimits.beginLoginAttempt({ account: who.account, ip: ctx.ip, trustedDevice: who.trustedDevice });
  } catch (err) {
    if (err instanceof AccountLocked && err.notifyOwner && owner) void sendAccountLockedNotice(ctx, owner);
    throw err;
  }
}

/**
 * Checks a password inside a counted attempt. A check the hashing queue could not run (503) gives
 * the attempt back: nothing was guessed.
 */
export async function checkPassword(ctx: Context, attempt: LoginAttempt, passwordHash: string | null, password: string): Promise<boolean> {
  try {
    return await passwordHasher.verify(passwordHash, password, ctx.clientGone());
  } catch (err) {
    if (err instanceof TRPCError && err.code === "SERVICE_UNAVAILABLE") await attempt.notChecked();
    throw err;
  }
}

/**
 * What a sign-in needs after its first factor: the code of the second ("verify"), an enrolment
 * first ("enrol": admins must have a second factor, and clients when the firm requires it), or
 * nothing. A passkey is both factors and never gets here.
 */
export async function secondStep(ctx: Pick<Context, "db">, user: { id: string; is_admin: boolean }): Promise<ChallengePurpose | null> {
  if (await hasTwoFactor(ctx.db, user.id)) return "verify";
  if (user.is_admin || (await clientTwoFactorRequired(ctx.db))) return "enrol";
  return null;
}

/** The session the request came with, if any (set by publicProcedure). */
export type CarriedSession = { session?: { id: string } | null };

/**
 * The end of every sign-in: a session, this browser trusted for the account (trusted-devices.ts),
 * and the owner told if the browser and address are new to the account. `trustedDevice` is the
 * browser's token for the account when the caller already looked it up.
 */
export async function finishSignIn(
  ctx: Context & CarriedSession,
  user: PublicUser,
  kind: SessionKind,
  opts: { sessionEpoch: number; devices?: string[]; trustedDevice?: string | null; secondFactor?: boolean },
): Promise<SignedIn> {
  const result = await startSession(ctx, user, kind, { ...opts, signIn: true });
  const devices = opts.devices ?? deviceTokens(ctx.deviceCookie.value);
  const trustedDevice = opts.trustedDevice !== undefined ? opts.trustedDevice : await findTrustedDevice(ctx.db, devices, user.id, ctx.now());
  ctx.deviceCookie.set(await trustDevice(ctx.db, user.id, devices, trustedDevice, ctx.now()));
  await tellOwnerOfNewSignIn(ctx, user.id);
  return result;
}

/** "Welcome back" once the person had signed in before this session began; "Welcome" the first time. */
export async function greeting(ctx: AuthedContext): Promise<{ returning: boolean }> {
  return { returning: await signedInBefore(ctx.db, ctx.user.id, ctx.session.id) };
}

/** Never fails the sign-in it follows: a failure is logged. */
async function tellOwnerOfNewSignIn(ctx: Context, userId: string): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (tx) => {
      const signInId = await noteSignIn(tx, userId, { ip: ctx.ip, userAgent: ctx.userAgent }, ctx.now());
      if (signInId) await ctx.jobs.send("email", { kind: "new-sign-in", userId, signInId }, { tx });
    });
  } catch (err) {
    ctx.logger.error({ err, userId }, "sign-in not noted");
  }
}

/**
 * Replaces the session the request carried, so signing in again (say, as admin at /admin) leaves
 * no earlier session alive behind the new cookie. `sessionEpoch` is the user's epoch read when the
 * credential was checked: if all their sessions were ended since (a password reset), or the account
 * is gone, the sign-in fails instead.
 */
export async function startSession(
  ctx: Context & CarriedSession,
  user: PublicUser,
  kind: SessionKind,
  opts: { sessionEpoch: number; signIn?: boolean; secondFactor?: boolean },
): Promise<SignedIn> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  const open = async (db: Db) => {
    const created = await createSession(
      db,
      { id: user.id, sessionEpoch: opts.sessionEpoch },
      kind,
      ctx.now(),
      { ip: ctx.ip, userAgent: ctx.userAgent },
      opts.secondFactor === true,
    );
    // A sign-in (not the new session a password change hands out) goes in the trail with its session.
    if (created && opts.signIn) {
      await recordActivity(db, ctx, {
        action: "auth.sign_in",
        client: user.is_admin ? null : personClient(user),
        actor: { id: user.id, role: user.is_admin ? "admin" : "client", label: accountLabel(user) },
        detail: { portal: kind },
      });
    }
    return created;
  };
  const created = opts.signIn ? await ctx.db.transaction().execute(open) : await open(ctx.db);
  if (!created) throw new TRPCError({ code: "UNAUTHORIZED", message: INVALID_CREDENTIALS });
  ctx.cookies.set(created.token, created.session.expiresAt);
  return ctx.answersSessionToken ? { success: true, session_token: created.token, user } : { success: true, user };
}

export async function logout(ctx: Context & { session: { id: string } | null; user?: PublicUser | null }): Promise<{ success: true }> {
  const { session, user } = ctx;
  if (session) {
    await ctx.db.transaction().execute(async (tx) => {
      await invalidateSession(tx, session.id);
      if (user) await recordActivity(tx, ctx, { action: "auth.sign_out", client: user.is_admin ? null : personClient(user) });
    });
  }
  ctx.cookies.clear();
  return { success: true };
}
