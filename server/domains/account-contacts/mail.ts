import { generateToken, hashToken } from "../../auth/session.ts";
import { composeEmail } from "../../mail/compose.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { invitationLink } from "../invitations/mail.ts";
import { markInvitationSent, setInvitationToken } from "../invitations/queries.ts";
import { invitationStatus } from "../invitations/service.ts";
import { firmName } from "../site/service.ts";
import { findAccountInvitationForMail } from "./queries.ts";

/** An account owner's invitation of another person, with a new link each try (as the firm's invitation mail). */
export type AccountInvitationJob = { invitationId: string; expiresAt: string };

/**
 * The link is made as the mail is sent, so the queue never holds a usable one; nothing to send once
 * the invitation is accepted, revoked or expired, or while the inviter's address is unproven. The
 * mail quotes nothing the inviter typed (docs/security.md, Round 4): not the invitee's name, not the
 * inviter's name, not the account's name (a self-registered account carries its registration name),
 * only the firm's words and the inviter's proven address.
 */
export async function accountInvitationMail(deps: AppDeps, job: AccountInvitationJob): Promise<Outgoing | null> {
  const invitation = await findAccountInvitationForMail(deps.db, job.invitationId);
  if (!invitation || invitationStatus(invitation, deps.now()) !== "pending") return null;
  // The firm's own people invite on the firm's behalf (an existing person asked to join an account,
  // docs/security.md, Round 4): the mail speaks for the firm, and their addresses are the firm's to set.
  const byFirm = invitation.inviter_is_firm === true;
  if (!byFirm && (!invitation.inviter_email || !invitation.inviter_verified_at)) return null;
  const token = generateToken();
  if (!(await setInvitationToken(deps.db, invitation.id, new Date(job.expiresAt), hashToken(token)))) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Join a client account",
    paragraphs: [
      "Hello,",
      byFirm
        ? `${firm} invites you to share a client account on its secure client portal, with the login you already have.`
        : `${invitation.inviter_email}, a client of ${firm}, invites you to share their client account on ${firm}'s secure client portal, with a login of your own.`,
      "Open the link below to join: if you already use our portal, sign in and the account is added to yours; if not, choose a username and password. The link works once and expires in 7 days.",
    ],
    action: { label: "Join", url: invitationLink(deps.config.publicUrl, token) },
    footer: "If you did not expect this invitation, ignore this email: nobody is added without you.",
  });
  return {
    message: { to: invitation.email, subject: `You are invited to join a client account at ${firm}`, ...body },
    onSent: (tx, at) => markInvitationSent(tx, invitation.id, at),
  };
}
