import { generateToken, hashToken } from "../../auth/session.ts";
import { composeEmail } from "../../mail/compose.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { invitationLink } from "../invitations/mail.ts";
import { markInvitationSent, setInvitationToken } from "../invitations/queries.ts";
import { invitationStatus } from "../invitations/service.ts";
import { firmName } from "../site/service.ts";
import { findStaffInvitationForMail } from "./queries.ts";

/** The firm's invitation of one of its people: the client invitation's link and token, another text. */
export type StaffInvitationJob = { invitationId: string; expiresAt: string };

/** As the client's invitation mail: the link is made as the mail is sent, and nothing goes once the invitation is spent. */
export async function staffInvitationMail(deps: AppDeps, job: StaffInvitationJob): Promise<Outgoing | null> {
  const invitation = await findStaffInvitationForMail(deps.db, job.invitationId);
  if (!invitation || invitationStatus(invitation, deps.now()) !== "pending") return null;
  const token = generateToken();
  if (!(await setInvitationToken(deps.db, invitation.id, new Date(job.expiresAt), hashToken(token)))) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: `Join ${firm}'s team`,
    paragraphs: [
      `Hello ${invitation.name},`,
      `${firm} adds you to its team on the secure client portal: you work on the firm's side, with its clients' documents and requests, not as a client.`,
      whatYouMayDo(invitation.staff_role, invitation.staff_rights),
      "Open the link below to choose a username and password; you then set up an authenticator app, which the firm's side always asks for. Afterwards you sign in at the portal's /admin page. The link works once and expires in 7 days.",
    ],
    action: { label: "Accept Invitation", url: invitationLink(deps.config.publicUrl, token) },
    footer: "If you did not expect this invitation, ignore this email: no account is made without you.",
  });
  return {
    message: { to: invitation.email, subject: `Your invitation to the ${firm} team`, ...body },
    onSent: (tx, at) => markInvitationSent(tx, invitation.id, at),
  };
}

/** The role and rights the invitation gives, in words (rights are the firm's fixed list, never typed text). */
function whatYouMayDo(role: string | null, rights: string[]): string {
  if (role === "admin") return "You join as an admin: you may do everything on the firm's side.";
  const named = rights.map((r) => r.replace(/_/g, " "));
  return named.length > 0
    ? `You join as staff, with these rights: ${named.join(", ")}. The owner or an admin can change them.`
    : "You join as staff without rights yet: the owner or an admin gives you the ones you need.";
}
