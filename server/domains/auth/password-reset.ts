// Password reset by email (docs/decisions.md, Password reset): the request answers the same for any well-formed email;
// a known one gets a single-use random token, stored only as its SHA-256 and valid for one hour,
// in a link built from PUBLIC_URL. Redeeming deletes the token atomically, sets the password and
// ends every session of the user; it also verifies the email address, since the link came by mail.
import { TRPCError } from "@trpc/server";
import { leaveAccountsOnClaim } from "../accounts/service.ts";
import { personClient, recordActivity } from "../activity/record.ts";
import { addressUnproven, voidEarlierHolder, voidPendingEmailChanges } from "../../auth/mailbox-proof.ts";
import { hashPassword } from "../../auth/password.ts";
import { hashToken, invalidateUserSessions } from "../../auth/session.ts";
import type { Context } from "../../trpc/context.ts";
import {
  deletePasskeys,
  deletePasswordResetTokens,
  findActingUser,
  findPasswordResetToken,
  findUserByEmail,
  markEmailVerified,
  setPasswordHash,
  takePasswordResetToken,
} from "./queries.ts";
import { assertPasswordAllowed } from "./service.ts";

const INVALID_RESET_TOKEN = "Invalid or expired reset token";

export async function requestPasswordReset(ctx: Context, input: { email: string }): Promise<{ success: true }> {
  // Limited for every email, known or not, so a 429 reveals nothing about accounts.
  await ctx.rateLimits.consumePasswordResetRequest(input.email, ctx.ip);
  const user = await findUserByEmail(ctx.db, input.email);
  // Queued once the answer is out, so a known email answers as fast as an unknown one.
  if (user) {
    ctx.jobs.send("email", { kind: "password-reset", userId: user.id }).catch((err: unknown) => {
      ctx.logger.error({ err, userId: user.id }, "password reset link not queued");
    });
  }
  return { success: true };
}

/**
 * Whether a reset link still works, asked when the link opens so nobody types a new password twice
 * for a spent link. It spends nothing. Counted like a reset request from the address (and at most
 * a few times an hour per link), so it is no cheaper a way to probe than redeeming.
 */
export async function checkResetToken(ctx: Context, input: { token: string }): Promise<{ valid: boolean }> {
  const tokenHash = hashToken(input.token);
  await ctx.rateLimits.consumePasswordResetRequest(`reset link ${tokenHash}`, ctx.ip);
  const candidate = await findPasswordResetToken(ctx.db, tokenHash);
  return { valid: Boolean(candidate && candidate.expires_at.getTime() > ctx.now().getTime()) };
}

/** `login` is what the user signs in with next (username, or the email for accounts without one), to fill in the form. */
export async function resetPassword(ctx: Context, input: { token: string; new_password: string }): Promise<{ success: true; login: string }> {
  const tokenHash = hashToken(input.token);
  // Cheap look-up first, so a guessed token never costs an argon2 hash.
  const candidate = await findPasswordResetToken(ctx.db, tokenHash);
  if (!candidate || candidate.expires_at.getTime() <= ctx.now().getTime()) throw invalidToken();
  assertPasswordAllowed(input.new_password);
  const passwordHash = await hashPassword(input.new_password);

  const login = await ctx.db.transaction().execute(async (tx) => {
    const token = await takePasswordResetToken(tx, tokenHash);
    if (!token || token.expires_at.getTime() <= ctx.now().getTime()) throw invalidToken();
    // The link came by mail: whoever reads the mailbox is the owner (docs/security.md, Round 3).
    // On an address never proven before, everything an earlier holder set up goes; on any account,
    // pending email changes and passkeys go, since a reset is what an owner does when someone else
    // may hold the password, and either could be that someone's.
    const claimed = await addressUnproven(tx, token.user_id);
    if (claimed) await voidEarlierHolder(tx, token.user_id);
    await voidPendingEmailChanges(tx, token.user_id);
    if ((await deletePasskeys(tx, token.user_id)) > 0) {
      await ctx.jobs.send("email", { kind: "account-security", userId: token.user_id, event: "passkeys-removed-by-reset" }, { tx });
    }
    await setPasswordHash(tx, token.user_id, passwordHash);
    await invalidateUserSessions(tx, token.user_id);
    await deletePasswordResetTokens(tx, token.user_id);
    await markEmailVerified(tx, token.user_id, ctx.now());
    const user = await findActingUser(tx, token.user_id);
    // The login leaves the accounts the earlier holder shared with anyone (docs/security.md, Round 4).
    if (claimed) await leaveAccountsOnClaim(tx, ctx, user, false);
    // Nobody is signed in here: the account whose link it was acts.
    await recordActivity(tx, ctx, {
      action: "auth.password_reset",
      client: user.is_admin ? null : personClient(user),
      actor: { id: user.id, role: user.is_admin ? "admin" : "client", label: user.username ?? user.email },
    });
    return user.username ?? user.email;
  });
  return { success: true, login };
}

function invalidToken() {
  return new TRPCError({ code: "BAD_REQUEST", message: INVALID_RESET_TOKEN });
}
