import { generateToken, hashToken } from "../../auth/session.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, portalLink } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";
import { INVITE_PARAM } from "./messages.ts";
import { findInvitationForMail, markInvitationSent, setInvitationToken, waitingForInvitee } from "./queries.ts";
import { invitationStatus } from "./service.ts";

export function invitationLink(publicUrl: string, token: string): string {
  return portalLink(publicUrl, INVITE_PARAM, token);
}

/** The firm's invitation of a client, with a new link (the earlier one dies). */
export type InvitationJob = { invitationId: string; expiresAt: string };

/**
 * The invitation mail, with a link made as it is sent (as the reset mail's): the queue never holds a
 * usable link, and each try replaces the token of the one before. Nothing to send once the
 * invitation is accepted, revoked or expired.
 */
export async function invitationMail(deps: AppDeps, job: InvitationJob): Promise<Outgoing | null> {
  const invitation = await findInvitationForMail(deps.db, job.invitationId);
  if (!invitation || invitationStatus(invitation, deps.now()) !== "pending") return null;
  const token = generateToken();
  if (!(await setInvitationToken(deps.db, invitation.id, new Date(job.expiresAt), hashToken(token)))) return null;
  const firm = await firmName(deps);
  const waiting = await waitingLine(deps, invitation.id, invitation.account_id);
  const body = composeEmail({
    firmName: firm,
    heading: "You are invited to our client portal",
    paragraphs: [
      `Hello ${invitation.name},`,
      `${firm} invites you to its secure client portal, where you share documents with us, see what we ask for and book appointments.`,
      ...(waiting ? [waiting] : []),
      "Open the link below to choose a username and password, or to continue with the Google account of this email address. The link works once and expires in 7 days.",
    ],
    action: { label: "Accept Invitation", url: invitationLink(deps.config.publicUrl, token) },
    footer: "If you did not expect this invitation, ignore this email: no account is made without you.",
  });
  return {
    message: { to: invitation.email, subject: `Your invitation to the ${firm} client portal`, ...body },
    onSent: (tx, at) => markInvitationSent(tx, invitation.id, at),
  };
}

const counted = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/**
 * What the firm prepared for the invitee, counted (never its titles): it waits in the portal and is
 * theirs the moment they accept (docs/decisions.md, "Prepared for invited people"); null for nothing.
 */
async function waitingLine(deps: AppDeps, invitationId: string, accountId: string | null): Promise<string | null> {
  const { signatures, organizers, requests } = await waitingForInvitee(deps.db, invitationId, accountId);
  const parts = [
    ...(signatures > 0 ? [counted(signatures, "document to sign", "documents to sign")] : []),
    ...(organizers > 0 ? [counted(organizers, "tax organizer to answer", "tax organizers to answer")] : []),
    ...(requests > 0 ? [counted(requests, "document request", "document requests")] : []),
  ];
  if (parts.length === 0) return null;
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `Waiting for you in the portal: ${list}. It is all there as soon as you accept.`;
}
