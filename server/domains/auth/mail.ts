// The auth domain's mail: the address check, the reset link and the lock notice, composed when
// their jobs run (jobs/email.ts), with the salutation every domain's mail uses.
import { generateToken, hashToken } from "../../auth/session.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, portalLink } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";
import { findUserById, replaceEmailVerificationToken, replacePasswordResetToken } from "./queries.ts";
import type { Language } from "./schemas.ts";

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

/** The reset mail in each language a person may choose (docs/i18n.md): a record, so a language without its words does not compile. */
const RESET_MAIL: Record<
  Language,
  {
    subject: (firm: string) => string;
    heading: string;
    greeting: (user: { name: string; email_verified: boolean }) => string;
    body: string;
    action: string;
    footer: (token: string) => string;
  }
> = {
  en: {
    subject: (firm) => `Reset your ${firm} password`,
    heading: "Reset your password",
    greeting,
    body: "We received a request to reset the password of your client portal account. Open the link below to choose a new password. The link works once and expires in 1 hour.",
    action: "Reset Password",
    footer: (token) =>
      `If the link does not open, paste this reset token into the Forgot Password dialog:\n${token}\n\nIf you did not ask for this, ignore this email: your password stays the same.`,
  },
  es: {
    subject: (firm) => `Restablezca su contraseña de ${firm}`,
    heading: "Restablezca su contraseña",
    greeting: (user) => (user.email_verified ? `Hola, ${user.name}:` : "Hola:"),
    body: "Recibimos una solicitud para restablecer la contraseña de su cuenta del portal del cliente. Abra el enlace a continuación para elegir una nueva contraseña. El enlace funciona una sola vez y vence en 1 hora.",
    action: "Restablecer contraseña",
    footer: (token) =>
      `Si el enlace no se abre, pegue este código de restablecimiento en el cuadro de diálogo ¿Olvidó su contraseña?:\n${token}\n\nSi usted no lo solicitó, ignore este correo electrónico: su contraseña no cambia.`,
  },
};

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
  const words = RESET_MAIL[user.language];
  const body = composeEmail({
    firmName: firm,
    language: user.language,
    heading: words.heading,
    paragraphs: [words.greeting(user), words.body],
    action: { label: words.action, url: resetLink(deps.config.publicUrl, token) },
    footer: words.footer(token),
  });
  return { message: { to: user.email, subject: words.subject(firm), ...body } };
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
