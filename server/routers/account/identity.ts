// Before a change that could take an account over (password, email, second factor, deleting it),
// the caller shows again that they are the owner, not just someone at an open session. Every check
// counts as a sign-in attempt (docs/decisions.md, Limits): a wrong password or code here adds to
// the same lockout as one at the login, so a borrowed session is no way to guess either.
import { assertHashingRoom } from "../../auth/password.ts";
import { hasTwoFactor, useSecondFactor } from "../../auth/second-factor.ts";
import { deviceTokens, findTrustedDevice } from "../../auth/trusted-devices.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { RequestRefused } from "../../trpc/errors.ts";
import { INVALID_CODE } from "../auth/schemas.ts";
import { beginLoginAttempt, checkPassword } from "../auth/service.ts";
import { findCredentials, sessionCreatedAt } from "./queries.ts";
import { WRONG_PASSWORD } from "./schemas.ts";

/** An account with neither a password nor a second factor proves itself by a sign-in this recent. */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;
export const SIGN_IN_AGAIN = "To confirm it is you, sign out, sign in again and try within 10 minutes.";
const ENTER_PASSWORD = "Please enter your current password";
const ENTER_CODE = "Please enter a code from your authenticator app";

export type Proof = { password?: string; code?: string };

/**
 * Checks the password (when `need.password`) and then a second-factor code (when `need.code`),
 * which a right code spends. Refuses (400) with what was wrong; 429 while the account is locked.
 */
export async function checkOwnership(ctx: AuthedContext, proof: Proof, need: { password: boolean; code: boolean }): Promise<void> {
  if (need.password && !proof.password) throw new RequestRefused(ENTER_PASSWORD);
  if (need.code && !proof.code) throw new RequestRefused(ENTER_CODE);
  if (need.password) assertHashingRoom();
  const userId = ctx.user.id;
  const trustedDevice = await findTrustedDevice(ctx.db, deviceTokens(ctx.deviceCookie.value), userId, ctx.now());
  const attempt = await beginLoginAttempt(ctx, { account: userId, trustedDevice }, ctx.user);
  if (need.password) {
    const credentials = await findCredentials(ctx.db, userId);
    if (!(await checkPassword(ctx, attempt, credentials?.password_hash ?? null, proof.password!))) throw new RequestRefused(WRONG_PASSWORD);
  }
  if (need.code) {
    const used = await useSecondFactor(ctx.db, ctx.config.totpEncryptionKey, userId, proof.code!, ctx.now());
    if (!used) throw new RequestRefused(INVALID_CODE);
  }
  // A right password alone does not clear the count of an account with a second factor, as at the login.
  if (need.code || !(await hasTwoFactor(ctx.db, userId))) await attempt.succeeded();
  else await attempt.firstFactorPassed();
}

/**
 * The owner's proof for deleting the account or changing its address: the password; for an account
 * without one (made by Google sign-in), a code; for one with neither, a sign-in within 10 minutes.
 */
export async function confirmIdentity(ctx: AuthedContext, proof: Proof): Promise<void> {
  const credentials = await findCredentials(ctx.db, ctx.user.id);
  if (credentials?.password_hash) return checkOwnership(ctx, proof, { password: true, code: false });
  if (await hasTwoFactor(ctx.db, ctx.user.id)) return checkOwnership(ctx, proof, { password: false, code: true });
  const signedInAt = await sessionCreatedAt(ctx.db, ctx.session.id);
  if (!signedInAt || ctx.now().getTime() - signedInAt.getTime() > RECENT_SIGN_IN_MS) throw new RequestRefused(SIGN_IN_AGAIN);
}
