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
 * the invitation is accepted, revoked or expired. The mail names the account and who invited, never
 * anything in it.
 */
export async function accountInvitationMail(deps: AppDeps, job: AccountInvitationJob): Promise<Outgoing | null> {
  const invitation = await findAccountInvitationForMail(deps.db, job.invitationId);
  if (!invitation || invitationStatus(invitation, deps.now()) !== "pending") return null;
  const token = generateToken();
  if (!(await setInvitationToken(deps.db, invitation.id, new Date(job.expiresAt), hashToken(token)))) return null;
  const firm = await firmName(deps);
  const inviter = invitation.inviter_name || "A client of ours";
  const body = composeEmail({
    firmName: firm,
    heading: `Join ${invitation.account_name}`,
    paragraphs: [
      `Hello ${invitation.name},`,
      `${inviter} invites you to share "${invitation.account_name}" on ${firm}'s secure client portal, with a login of your own.`,
      "Open the link below to join: if you already use our portal, sign in and the account is added to yours; if not, choose a username and password. The link works once and expires in 7 days.",
    ],
    action: { label: "Join", url: invitationLink(deps.config.publicUrl, token) },
    footer: "If you did not expect this invitation, ignore this email: nobody is added without you.",
  });
  return {
    message: { to: invitation.email, subject: `You are invited to join ${invitation.account_name} at ${firm}`, ...body },
    onSent: (tx, at) => markInvitationSent(tx, invitation.id, at),
  };
}
