import { TRPCError } from "@trpc/server";
import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword, passwordHasher } from "../../auth/password.ts";
import { createSession, invalidateSession, type SessionKind } from "../../auth/session.ts";
import type { Context } from "../../trpc/context.ts";
import { sendVerificationLink } from "./email-verification.ts";
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

/** Password login for both portals; admin sign-in additionally needs `is_admin`. */
export async function loginWithPassword(ctx: Context & CarriedSession, input: LoginInput, kind: SessionKind): Promise<LoginResult> {
  const row = await findUserForLogin(ctx.db, input.username);
  // Counted per account, so its username and its email do not get a counter each.
  const account = row ? row.id : `unknown:${input.username.toLowerCase()}`;
  await ctx.rateLimits.beginLoginAttempt(account, ctx.ip);
  const valid = await passwordHasher.verify(row?.password_hash ?? null, input.password);
  if (!row || !valid) {
    await ctx.rateLimits.recordLoginFailure(account);
    throw new TRPCError({ code: "UNAUTHORIZED", message: INVALID_CREDENTIALS });
  }
  await ctx.rateLimits.recordLoginSuccess(account, ctx.ip);
  if (kind === "admin" && !row.is_admin) throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  const { password_hash: _hash, session_epoch: sessionEpoch, ...user } = row;
  return startSession(ctx, user, kind, { sessionEpoch, returnToken: input.return_token === true });
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
