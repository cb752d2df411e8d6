// Email verification: until a user shows they receive mail at their address, mail from the firm to
// that address carries no text the registrant chose (their name could be anyone's words, and an
// unverified address could be anyone's inbox). Registration sends a single-use link valid for
// 24 hours; its token is stored only as its SHA-256, with the address it was sent to.
import { TRPCError } from "@trpc/server";
import { hashToken } from "../../auth/session.ts";
import type { Context } from "../../trpc/context.ts";
import { markEmailVerified, takeEmailVerificationToken } from "./queries.ts";
import { INVALID_VERIFICATION_LINK, type PublicUser } from "./schemas.ts";

const ALREADY_VERIFIED = "Your email is already verified";

/** Queues the mail with a new link. Called without awaiting, after the answer is out; never rejects (a failure is logged). */
export async function sendVerificationLink(ctx: Context, user: { id: string }): Promise<void> {
  try {
    await ctx.jobs.send("email", { kind: "email-verification", userId: user.id });
  } catch (err) {
    ctx.logger.error({ err, userId: user.id }, "email verification link not queued");
  }
}

export async function verifyEmail(ctx: Context, input: { token: string }): Promise<{ success: true }> {
  const verified = await ctx.db.transaction().execute(async (tx) => {
    const token = await takeEmailVerificationToken(tx, hashToken(input.token));
    if (!token || token.expires_at.getTime() <= ctx.now().getTime()) return false;
    return markEmailVerified(tx, token.user_id, ctx.now(), token.email);
  });
  if (!verified) throw new TRPCError({ code: "BAD_REQUEST", message: INVALID_VERIFICATION_LINK });
  return { success: true };
}

/** Counted before anything else, so even an already verified user cannot make the server busy. */
export async function resendVerification(ctx: Context & { user: PublicUser }): Promise<{ success: true }> {
  await ctx.rateLimits.consumeVerificationResend(ctx.user.id);
  if (ctx.user.email_verified) throw new TRPCError({ code: "CONFLICT", message: ALREADY_VERIFIED });
  void sendVerificationLink(ctx, ctx.user);
  return { success: true };
}
