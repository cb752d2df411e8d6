// Email verification: until a user shows they receive mail at their address, mail from the firm to
// that address carries no text the registrant chose (their name could be anyone's words, and an
// unverified address could be anyone's inbox). Registration sends a single-use link valid for
// 24 hours; its token is stored only as its SHA-256, with the address it was sent to.
import { TRPCError } from "@trpc/server";
import { generateToken, hashToken } from "../../auth/session.ts";
import { composeEmail } from "../../mail/compose.ts";
import type { Outgoing } from "../../jobs/email.ts";
import type { AppDeps, Context } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";
import { findUserById, markEmailVerified, replaceEmailVerificationToken, takeEmailVerificationToken } from "./queries.ts";
import { INVALID_VERIFICATION_LINK, type PublicUser } from "./schemas.ts";

export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const VERIFY_TOKEN_PARAM = "verify_token";
export const ALREADY_VERIFIED = "Your email is already verified";

/** The salutation of any mail to a user: their name only once their address is verified. */
export function greeting(user: { name: string; email_verified: boolean }): string {
  return user.email_verified ? `Hello ${user.name},` : "Hello,";
}

export function verificationLink(publicUrl: string, token: string): string {
  const url = new URL("/", publicUrl);
  url.searchParams.set(VERIFY_TOKEN_PARAM, token);
  return url.toString();
}

/** Queues the mail with a new link. Called without awaiting, after the answer is out; never rejects (a failure is logged). */
export async function sendVerificationLink(ctx: Context, user: { id: string }): Promise<void> {
  try {
    await ctx.jobs.send("email", { kind: "email-verification", userId: user.id });
  } catch (err) {
    ctx.logger.error({ err, userId: user.id }, "email verification link not queued");
  }
}

/**
 * The verification mail, to the address the user has when it is sent, with a link made then and
 * replacing any earlier one. Nothing to send once the address is verified.
 */
export async function verificationMail(deps: AppDeps, job: { userId: string }): Promise<Outgoing | null> {
  const user = await findUserById(deps.db, job.userId);
  if (!user || user.email_verified) return null;
  const token = generateToken();
  const now = deps.now();
  await replaceEmailVerificationToken(deps.db, {
    token_hash: hashToken(token),
    user_id: user.id,
    email: user.email,
    expires_at: new Date(now.getTime() + VERIFICATION_TOKEN_TTL_MS),
    created_at: now,
  });
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Verify your email address",
    paragraphs: [
      "Hello,",
      "A client portal account was created with this email address. Open the link below to confirm that the address is yours. The link works once and expires in 24 hours.",
    ],
    action: { label: "Verify Email", url: verificationLink(deps.config.publicUrl, token) },
    footer: "If you did not create this account, ignore this email: the address stays unverified.",
  });
  return { message: { to: user.email, subject: `Verify your email for ${firm}`, ...body } };
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
