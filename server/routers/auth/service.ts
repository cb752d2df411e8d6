import { TRPCError } from "@trpc/server";
import { assertHashingRoom, COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword, passwordHasher } from "../../auth/password.ts";
import { AccountLocked, type LoginAttempt } from "../../auth/rate-limit.ts";
import { createSession, invalidateSession, type SessionKind } from "../../auth/session.ts";
import { deviceTokens, findTrustedDevice, trustDevice } from "../../auth/trusted-devices.ts";
import type { Context } from "../../trpc/context.ts";
import { sendVerificationLink } from "./email-verification.ts";
import { sendAccountLockedNotice } from "./lock-notice.ts";
import { findTakenIdentity, findUserForLogin, insertUser } from "./queries.ts";
import type { LoginInput, PublicUser, RegisterInput } from "./schemas.ts";

export const INVALID_CREDENTIALS = "Invalid username or password";
export const USERNAME_TAKEN = "Username already exists";
export const EMAIL_TAKEN = "Email already registered";

export function assertPasswordAllowed(password: string): void {
  if (isCommonPassword(password)) throw new TRPCError({ code: "BAD_REQUEST", message: COMMON_PASSWORD_MESSAGE });
}

export async function register(ctx: Context, input: RegisterInput): Promise<{ success: true }> {
  await ctx.rateLimits.consumeRegistration(ctx.ip);
  assertPasswordAllowed(input.password);
  const taken = await findTakenIdentity(ctx.db, input.username, input.email);
  if (taken) throw new TRPCError({ code: "CONFLICT", message: taken === "username" ? USERNAME_TAKEN : EMAIL_TAKEN });
  const passwordHash = await hashPassword(input.password);
  let user: PublicUser;
  try {
    user = await insertUser(ctx.db, {
      username: input.username,
      email: input.email,
      name: input.name,
      password_hash: passwordHash,
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

/** `session_token` only for a client that asked for it (`return_token`): the browser has its cookie. */
export type LoginResult = { success: true; session_token?: string; user: PublicUser };

/**
 * A client that has gone gets no more work done for it: a flood of logins whose connections are
 * dropped at once costs one look-up each, and no counting or hashing.
 */
function stopIfClientGone(ctx: Context): void {
  if (ctx.clientGone()?.aborted) throw new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: "Request closed" });
}

/** Password login for both portals; admin sign-in additionally needs `is_admin`. */
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
  let attempt: LoginAttempt;
  try {
    attempt = await ctx.rateLimits.beginLoginAttempt({ account, ip: ctx.ip, trustedDevice });
  } catch (err) {
    if (err instanceof AccountLocked && err.notifyOwner && row) void sendAccountLockedNotice(ctx, row);
    throw err;
  }
  let valid: boolean;
  try {
    valid = await passwordHasher.verify(row?.password_hash ?? null, input.password, ctx.clientGone());
  } catch (err) {
    if (err instanceof TRPCError && err.code === "SERVICE_UNAVAILABLE") await attempt.notChecked();
    throw err;
  }
  if (!row || !valid) throw new TRPCError({ code: "UNAUTHORIZED", message: INVALID_CREDENTIALS });
  await attempt.succeeded();
  if (kind === "admin" && !row.is_admin) throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  const { password_hash: _hash, session_epoch: sessionEpoch, ...user } = row;
  const result = await startSession(ctx, user, kind, { sessionEpoch, returnToken: input.return_token === true });
  ctx.deviceCookie.set(await trustDevice(ctx.db, row.id, devices, trustedDevice, ctx.now()));
  return result;
}

/** The session the request came with, if any (set by publicProcedure). */
export type CarriedSession = { session?: { id: string } | null };

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
  opts: { sessionEpoch: number; returnToken?: boolean },
): Promise<LoginResult> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  const created = await createSession(ctx.db, { id: user.id, sessionEpoch: opts.sessionEpoch }, kind, ctx.now());
  if (!created) throw new TRPCError({ code: "UNAUTHORIZED", message: INVALID_CREDENTIALS });
  ctx.cookies.set(created.token, created.session.expiresAt);
  return opts.returnToken ? { success: true, session_token: created.token, user } : { success: true, user };
}

export async function logout(ctx: Context & { session: { id: string } | null }): Promise<{ success: true }> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  ctx.cookies.clear();
  return { success: true };
}
