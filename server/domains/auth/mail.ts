// The auth domain's mail: the address check, the reset link and the lock notice, composed when
// their jobs run (jobs/email.ts), with the salutation every domain's mail uses.
import { generateToken, hashToken } from "../../auth/session.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, portalLink } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";
import { findUserById, replaceEmailVerificationToken, replacePasswordResetToken } from "./queries.ts";

const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export const VERIFY_TOKEN_PARAM = "verify_token";

/** The salutation of any mail to a user: their name only once their address is verified. */
export function greeting(user: { name: string; email_verified: boolean }): string {
  return user.email_verified ? `Hello ${user.name},` : "Hello,";
}

export function verificationLink(publicUrl: string, token: string): string {
  return portalLink(publicUrl, VERIFY_TOKEN_PARAM, token);
}

export type EmailVerificationJob = { userId: string };

/**
 * The verification mail, to the address the user has when it is sent, with a link made then and
 * replacing any earlier one. Nothing to send once the address is verified.
 */
export async function verificationMail(deps: AppDeps, job: EmailVerificationJob): Promise<Outgoing | null> {
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

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

function resetLink(publicUrl: string, token: string): string {
  return portalLink(publicUrl, "reset_token", token);
}

export type PasswordResetJob = { userId: string };

/**
 * The reset mail, with a token made as it is sent: the queue never holds a usable link, and each
 * try replaces the token of the try before, which never reached the user.
 */
export async function resetMail(deps: AppDeps, job: PasswordResetJob): Promise<Outgoing | null> {
  const user = await findUserById(deps.db, job.userId);
  if (!user) return null;
  const token = generateToken();
  const now = deps.now();
  await deps.db.transaction().execute((tx) =>
    replacePasswordResetToken(tx, {
      token_hash: hashToken(token),
      user_id: user.id,
      expires_at: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
      created_at: now,
    }),
  );
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Reset your password",
    paragraphs: [
      greeting(user),
      "We received a request to reset the password of your client portal account. Open the link below to choose a new password. The link works once and expires in 1 hour.",
    ],
    action: { label: "Reset Password", url: resetLink(deps.config.publicUrl, token) },
    footer: `If the link does not open, paste this reset token into the Forgot Password dialog:\n${token}\n\nIf you did not ask for this, ignore this email: your password stays the same.`,
  });
  return { message: { to: user.email, subject: `Reset your ${firm} password`, ...body } };
}

export type AccountLockedJob = { userId: string };

/**
 * The lock notice. The address may never have been verified, so the mail carries nothing the
 * registrant chose: no name, no username.
 */
export async function lockNoticeMail(deps: AppDeps, job: AccountLockedJob): Promise<Outgoing | null> {
  const user = await findUserById(deps.db, job.userId);
  if (!user) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Sign-in to your account is paused",
    paragraphs: [
      "Hello,",
      "Someone has entered many wrong passwords for your client portal account within the last hour. To protect the account, we have paused signing in to it for up to an hour, except in browsers you have signed in with before: those still work.",
      "None of these attempts signed in. If they were not yours, choosing a long password you use nowhere else keeps it that way.",
    ],
    footer: "You receive this email because this address belongs to a client portal account.",
  });
  return { message: { to: user.email, subject: `Sign-in to your ${firm} account is paused`, ...body } };
}
