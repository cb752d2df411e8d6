// The account's security mail (docs/security.md, Account security mail): the owner hears of every
// change that could lock them out or let someone else in, at the address the account has when
// the mail goes out. None of it carries text anyone typed but the owner's name, and that only once
// the address is verified (greeting()).
import type { Outgoing } from "../../mail/outgoing.ts";
import { generateToken, hashToken } from "../../auth/session.ts";
import { composeEmail, portalLink } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { greeting } from "../auth/mail.ts";
import { findUserById } from "../auth/queries.ts";
import { firmName } from "../site/service.ts";
import { findConfirmedEmailChange, findKnownSignIn, findUnconfirmedEmailChange, setEmailChangeTokens } from "./queries.ts";

const EMAIL_CHANGE_TOKEN_TTL_MS = 60 * 60 * 1000;
export const EMAIL_CHANGE_TOKEN_PARAM = "email_change_token";
export const EMAIL_CHANGE_CANCEL_PARAM = "email_change_cancel";

type SecurityEvent =
  "password-changed" | "two-factor-enabled" | "two-factor-disabled" | "passkey-added" | "passkey-removed" | "passkeys-removed-by-reset";

const EVENTS: Record<SecurityEvent, { subject: string; heading: string; what: string }> = {
  "password-changed": {
    subject: "Your password was changed",
    heading: "Your password was changed",
    what: "The password of your client portal account was just changed, and every other session of the account was signed out.",
  },
  "two-factor-enabled": {
    subject: "Two-factor sign-in is on",
    heading: "Two-factor sign-in is on",
    what: "Two-factor sign-in was turned on for your client portal account: signing in now also needs a code from your authenticator app (or one of your backup codes).",
  },
  "two-factor-disabled": {
    subject: "Two-factor sign-in was turned off",
    heading: "Two-factor sign-in was turned off",
    what: "Two-factor sign-in was turned off for your client portal account: signing in needs only the password again.",
  },
  "passkey-added": {
    subject: "A passkey was added to your account",
    heading: "A passkey was added",
    what: "A passkey was added to your client portal account. It signs in to the account on its own, without the password.",
  },
  "passkey-removed": {
    subject: "A passkey was removed from your account",
    heading: "A passkey was removed",
    what: "A passkey was removed from your client portal account; it no longer signs in.",
  },
  "passkeys-removed-by-reset": {
    subject: "Your passkeys were removed",
    heading: "Your passkeys were removed",
    what: "The password of your client portal account was reset by email, so the passkeys added before it were removed: any of them could have been added by someone else who knew the old password. Add your own again in Settings.",
  },
};

const NOT_YOU =
  "If this was not you, reset your password at once with “Forgot your password?” in the Client Portal dialog, then sign out all other sessions in Settings, and call the firm.";

export type AccountSecurityJob = { userId: string; event: SecurityEvent };

export async function securityEventMail(deps: AppDeps, job: AccountSecurityJob): Promise<Outgoing | null> {
  const user = await findUserById(deps.db, job.userId);
  if (!user) return null;
  const firm = await firmName(deps);
  const event = EVENTS[job.event];
  const body = composeEmail({
    firmName: firm,
    heading: event.heading,
    paragraphs: [greeting(user), event.what, "If this was you, there is nothing to do."],
    footer: NOT_YOU,
  });
  return { message: { to: user.email, subject: `${event.subject} (${firm})`, ...body } };
}

export type NewSignInJob = { userId: string; signInId: string };

/** A sign-in from a browser and address the account had not signed in from (server/auth/sign-ins.ts). */
export async function newSignInMail(deps: AppDeps, job: NewSignInJob): Promise<Outgoing | null> {
  const [user, signIn] = await Promise.all([findUserById(deps.db, job.userId), findKnownSignIn(deps.db, job.signInId)]);
  if (!user || !signIn) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "New sign-in to your account",
    paragraphs: [
      greeting(user),
      "Your client portal account was just signed in to from a browser and address it had not been signed in from before.",
    ],
    details: [
      ["Browser", signIn.browser],
      ["Address", signIn.ip],
      [
        "Time",
        new Intl.DateTimeFormat("en-US", {
          timeZone: deps.config.firmTimeZone,
          year: "numeric",
          month: "short",
          day: "numeric",
          hour: "numeric",
          minute: "2-digit",
          timeZoneName: "short",
        }).format(signIn.first_seen_at),
      ],
    ],
    footer: `If this was you, there is nothing to do. ${NOT_YOU}`,
  });
  return { message: { to: user.email, subject: `New sign-in to your ${firm} account`, ...body } };
}

export function emailChangeLink(publicUrl: string, token: string): string {
  return portalLink(publicUrl, EMAIL_CHANGE_TOKEN_PARAM, token);
}

export type EmailChangeJob = { changeId: string };

/**
 * The link to the new address, with a token made as it is sent (the queue never holds a usable
 * link). The address belongs to nobody proven yet, so the mail names no one.
 */
export async function emailChangeMail(deps: AppDeps, job: EmailChangeJob): Promise<Outgoing | null> {
  const change = await findUnconfirmedEmailChange(deps.db, job.changeId);
  if (!change) return null;
  const token = generateToken();
  const now = deps.now();
  await setEmailChangeTokens(deps.db, change.id, { token_hash: hashToken(token), expires_at: new Date(now.getTime() + EMAIL_CHANGE_TOKEN_TTL_MS) });
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Confirm your new email address",
    paragraphs: [
      "Hello,",
      "Someone asked to use this address for a client portal account. Open the link below to confirm that the address is yours; the account's email changes when you do. The link works once and expires in 1 hour.",
    ],
    action: { label: "Confirm Email Address", url: emailChangeLink(deps.config.publicUrl, token) },
    footer: "If you did not ask for this, ignore this email: nothing changes.",
  });
  return { message: { to: change.new_email, subject: `Confirm your new email for ${firm}`, ...body } };
}

export type EmailChangedJob = { changeId: string };

/**
 * To the old address once the change took effect, so an owner who did not make it learns where
 * their account went. Only to an address that was verified: the mail names the new address.
 */
export async function emailChangedMail(deps: AppDeps, job: EmailChangedJob): Promise<Outgoing | null> {
  const change = await findConfirmedEmailChange(deps.db, job.changeId);
  const user = change ? await findUserById(deps.db, change.user_id) : undefined;
  if (!change || !user || !change.old_email_verified) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Your email address was changed",
    paragraphs: [
      greeting({ name: user.name, email_verified: true }),
      `The email address of your client portal account was changed from this address to ${change.new_email}. Mail about the account goes there from now on.`,
    ],
    footer: "If this was not you, call the firm at once: someone who can sign in to your account changed it.",
  });
  return { message: { to: change.old_email, subject: `Your ${firm} email address was changed`, ...body } };
}

export function emailChangeCancelLink(publicUrl: string, token: string): string {
  return portalLink(publicUrl, EMAIL_CHANGE_CANCEL_PARAM, token);
}

export type EmailChangeRequestedJob = { changeId: string };

/**
 * To the current address as soon as a change is asked (docs/security.md, Round 3), with a link
 * that stops it: an owner whose password someone else holds learns of the move while it can still
 * be stopped, not once it is done. The token is made as the mail goes out, like every link here.
 * Nothing to send once the change is confirmed or voided, nor to an address nobody verified (it
 * names the new address, as the mail after the change does, which goes only to verified ones).
 */
export async function emailChangeRequestedMail(deps: AppDeps, job: EmailChangeRequestedJob): Promise<Outgoing | null> {
  const change = await findUnconfirmedEmailChange(deps.db, job.changeId);
  const user = change ? await findUserById(deps.db, change.user_id) : undefined;
  if (!change || !user || !change.old_email_verified) return null;
  const token = generateToken();
  await setEmailChangeTokens(deps.db, change.id, { cancel_token_hash: hashToken(token) });
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Someone asked to change your email address",
    paragraphs: [
      greeting(user),
      `Someone signed in to your client portal account asked to change its email address from this address to ${change.new_email}. It changes only if the link sent to the new address is opened within 1 hour.`,
      "If this was you, there is nothing to do. If it was not, stop the change with the link below, then reset your password and sign out all other sessions in Settings.",
    ],
    action: { label: "Stop This Change", url: emailChangeCancelLink(deps.config.publicUrl, token) },
    footer: NOT_YOU,
  });
  return { message: { to: change.old_email, subject: `Your ${firm} email address is about to change`, ...body } };
}
