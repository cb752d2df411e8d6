// Before a change that could take an account over (password, email, second factor, deleting it),
// the caller shows again that they are the owner, not just someone at an open session. Every check
// counts as a sign-in attempt (docs/decisions.md, Limits): a wrong password or code here adds to
// the same lockout as one at the login, so a borrowed session is no way to guess either.
import { assertHashingRoom } from "../../auth/password.ts";
import { hasTwoFactor, useSecondFactor } from "../../auth/second-factor.ts";
import { deviceTokens, findTrustedDevice } from "../../auth/trusted-devices.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { RequestRefused } from "../../trpc/errors.ts";
import { CONFIRM_IT_IS_YOU } from "../auth/messages.ts";
import { INVALID_CODE } from "../auth/schemas.ts";
import { beginLoginAttempt, checkPassword } from "../auth/service.ts";
import { findCredentials, findSessionProofs, markSessionProven, sessionCreatedAt } from "./queries.ts";
import { WRONG_PASSWORD } from "./schemas.ts";

/** An account with neither a password nor a second factor proves itself by a sign-in this recent. */
const RECENT_SIGN_IN_MS = 10 * 60 * 1000;
/** How long a proof at a session (the password, a code, the sign-in itself) stays fresh. */
const FRESH_PROOF_MS = RECENT_SIGN_IN_MS;
const SIGN_IN_AGAIN = "To confirm it is you, sign out, sign in again and try within 10 minutes.";
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
 * A fresh proof at this session (docs/security.md, Round 3): the password, or a code, checked as
 * above and recorded on the session, so the next few minutes' sensitive changes (adding a passkey,
 * turning two-factor sign-in on) need not ask again. A code also counts as a fresh second factor.
 */
export async function proveIdentity(ctx: AuthedContext, proof: Proof): Promise<{ success: true }> {
  if (!proof.password && !proof.code) throw new RequestRefused(ENTER_PASSWORD);
  await checkOwnership(ctx, proof, { password: Boolean(proof.password), code: Boolean(proof.code) });
  const now = ctx.now();
  await markSessionProven(ctx.db, ctx.session.id, proof.code ? { proven_at: now, second_factor_proven_at: now } : { proven_at: now });
  return { success: true };
}

/**
 * Refuses unless the person at this session showed the password, a code or a sign-in within the
 * last 10 minutes; answers whether that included a fresh second factor. An account with nothing
 * to show (no password, no second factor) signs in again instead.
 */
export async function requireFreshProof(ctx: AuthedContext): Promise<{ secondFactor: boolean }> {
  const row = await findSessionProofs(ctx.db, ctx.session.id);
  const fresh = (at: Date | null | undefined) => Boolean(at && ctx.now().getTime() - at.getTime() <= FRESH_PROOF_MS);
  if (!fresh(row?.proven_at)) {
    const credentials = await findCredentials(ctx.db, ctx.user.id);
    if (!credentials?.password_hash && !(await hasTwoFactor(ctx.db, ctx.user.id))) throw new RequestRefused(SIGN_IN_AGAIN);
    throw new RequestRefused(CONFIRM_IT_IS_YOU);
  }
  return { secondFactor: fresh(row?.second_factor_proven_at) };
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
