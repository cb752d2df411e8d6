// The client's side of an invitation (docs/decisions.md, Invitations): the link opens a form that
// shows whom the invitation is for; the client chooses a username and password (registration's
// rules) and is signed in, or continues with Google with the invited address. Either way the
// invitation is accepted in the transaction that makes the account, so it works once.
import { addContact, createAccountWithOwner } from "../accounts/queries.ts";
import { leaveAccountsOnClaim } from "../accounts/service.ts";
import { TRPCError } from "@trpc/server";
import { accountLabel, type ActivityActorContext, personClient, recordActivity } from "../activity/record.ts";
import { addressUnproven, voidEarlierHolder } from "../../auth/mailbox-proof.ts";
import { hashPassword } from "../../auth/password.ts";
import { createTwoFactorChallenge } from "../../auth/second-factor.ts";
import { hashToken } from "../../auth/session.ts";
import type { Db } from "../../db/types.ts";
import type { Context } from "../../trpc/context.ts";
import { claimUser, findSessionEpoch, findTakenIdentity, insertUser } from "../auth/queries.ts";
import type { PublicUser } from "../auth/schemas.ts";
import { assertPasswordAllowed, type CarriedSession, EMAIL_TAKEN, finishSignIn, secondStep, USERNAME_TAKEN } from "../auth/service.ts";
import {
  bindInvitedSigners,
  findClaimableAccount,
  findInvitationAccount,
  findInvitationByTokenHash,
  giveInvitationLanguage,
  lockOpenInvitationsFor,
  markInvitationAccepted,
  registrationMode,
} from "./queries.ts";
import { type AcceptInvitationInput, INVALID_INVITATION, type InvitationPeek } from "./schemas.ts";
import { invitationStatus } from "./service.ts";
import { assignFromInvitation, makeStaffMember } from "../staff/queries.ts";
import { findAccountNameOfInvitation } from "../account-contacts/queries.ts";

const INVITATION_EXPIRED = "This invitation has expired. Ask the firm to send you a new one.";
const INVITATION_WITHDRAWN = "This invitation was withdrawn by the firm.";
const INVITATION_USED = "This invitation has already been used. Log in with the account it made.";

type Invitation = NonNullable<Awaited<ReturnType<typeof findInvitationByTokenHash>>>;

/** The invitation a link names while it can still be accepted; otherwise a 4xx saying why not. */
export async function usableInvitation(db: Db, token: string, now: Date): Promise<Invitation> {
  const invitation = await findInvitationByTokenHash(db, hashToken(token));
  if (!invitation) throw new TRPCError({ code: "NOT_FOUND", message: INVALID_INVITATION });
  const status = invitationStatus(invitation, now);
  if (status === "accepted") throw new TRPCError({ code: "CONFLICT", message: INVITATION_USED });
  if (status === "revoked") throw new TRPCError({ code: "NOT_FOUND", message: INVITATION_WITHDRAWN });
  if (status === "expired") throw new TRPCError({ code: "NOT_FOUND", message: INVITATION_EXPIRED });
  return invitation;
}

/** Counted as a registration from the address, so guessing links costs as much as registering. */
export async function peekInvitation(ctx: Context, input: { token: string }): Promise<InvitationPeek> {
  await ctx.rateLimits.consumeRegistration(ctx.ip);
  const invitation = await usableInvitation(ctx.db, input.token, ctx.now());
  return {
    name: invitation.name,
    email: invitation.email,
    expires_at: invitation.expires_at,
    for_staff: invitation.staff_role !== null,
    account_name: (await findAccountNameOfInvitation(ctx.db, invitation.id)) ?? null,
  };
}

/**
 * What the firm prepared for the invitee becomes theirs in the acceptance's transaction (docs/decisions.md,
 * "Prepared for invited people"): an invited staff member's accounts become their assignments, and
 * the signer slots held for a client are bound to them. Only for the invitation's own address, which
 * the acceptance proved (the link came to it, or Google vouched for it): nothing binds to another.
 */
export async function takeOverPreparedWork(tx: Db, now: Date, invitation: { id: string; email: string }, user: PublicUser): Promise<void> {
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) return;
  if (user.is_admin) await assignFromInvitation(tx, invitation.id, user.id, now);
  await bindInvitedSigners(tx, invitation.id, user);
}

/** The invitation accepted by the account just made for it, with its activity entry; false if someone else got there first. */
async function acceptFor(tx: Db, ctx: ActivityActorContext, invitation: { id: string; email: string }, user: PublicUser): Promise<boolean> {
  if (!(await markInvitationAccepted(tx, invitation.id, user.id, ctx.now()))) return false;
  await giveInvitationLanguage(tx, invitation.id, user.id);
  // The invitee joins the account made for them when they were invited (an invitation from before
  // accounts makes their individual account now). One of the firm's people gets no client account
  // (docs/security.md, "Round 4"): the firm's data is theirs through the admin portal.
  const joins = await findInvitationAccount(tx, invitation.id);
  if (joins?.account_id)
    await addContact(tx, joins.account_id, user.id, { role: joins.role, household_role: joins.household_role, notify: joins.notify });
  else if (!user.is_admin) await createAccountWithOwner(tx, { name: user.name, kind: "individual" }, user.id);
  await takeOverPreparedWork(tx, ctx.now(), invitation, user);
  await recordActivity(tx, ctx, {
    action: "invitation.accept",
    client: user.is_admin ? null : personClient(user),
    actor: { id: user.id, role: user.is_admin ? "admin" : "client", label: accountLabel(user) },
    target: { type: "invitation", id: invitation.id },
    detail: { email: invitation.email },
  });
  return true;
}

export async function acceptInvitation(ctx: Context & CarriedSession, input: AcceptInvitationInput) {
  await ctx.rateLimits.consumeRegistration(ctx.ip);
  const invitation = await usableInvitation(ctx.db, input.token, ctx.now());
  assertPasswordAllowed(input.password, [input.username, input.name, invitation.email]);
  // An account that registered the address without proving it is claimed, not refused: the link
  // proves the mailbox, and whoever registered first may be a squatter (docs/security.md, Round 3).
  const claimable = await findClaimableAccount(ctx.db, invitation.email);
  const taken = await findTakenIdentity(ctx.db, input.username, invitation.email, claimable?.id);
  if (taken) throw new TRPCError({ code: "CONFLICT", message: taken === "username" ? USERNAME_TAKEN : EMAIL_TAKEN });
  const passwordHash = await hashPassword(input.password);
  let created: { user: PublicUser; sessionEpoch: number };
  try {
    created = await ctx.db.transaction().execute(async (tx) => {
      const fields = { username: input.username, name: input.name, password_hash: passwordHash };
      let user = claimable
        ? await claimAccount(tx, ctx, claimable.id, invitation.email, fields)
        : await insertUser(tx, {
            ...fields,
            email: invitation.email,
            // The link came by mail to this address.
            email_verified_at: ctx.now(),
          });
      // A staff invitation makes one of the firm's people (docs/decisions.md, "Staff roles and rights (issue 33)").
      if (invitation.staff_role) {
        await makeStaffMember(tx, user.id, invitation.staff_role, invitation.staff_rights);
        user = { ...user, is_admin: true };
      }
      // Spent, revoked or expired since the look-up above: the account is not made, and the answer says why.
      if (!(await acceptFor(tx, ctx, invitation, user))) {
        await usableInvitation(tx, input.token, ctx.now());
        throw new TRPCError({ code: "CONFLICT", message: INVITATION_USED });
      }
      return { user, sessionEpoch: await findSessionEpoch(tx, user.id) };
    });
  } catch (err) {
    if ((err as { code?: string }).code === "23505") {
      const constraint = String((err as { constraint?: string }).constraint ?? "");
      throw new TRPCError({ code: "CONFLICT", message: constraint.includes("email") ? EMAIL_TAKEN : USERNAME_TAKEN });
    }
    throw err;
  }
  const { user, sessionEpoch } = created;
  // A firm that requires two-factor sign-in of every client has the new client enrol first; one of
  // the firm's people always enrols, and is then signed in to the admin portal.
  if ((await secondStep(ctx, user)) === "enrol") {
    const kind = user.is_admin ? "admin" : "client";
    const challenge = await createTwoFactorChallenge(ctx.db, { userId: user.id, purpose: "enrol", kind, sessionEpoch }, ctx.now());
    return { two_factor_setup_required: true as const, challenge };
  }
  return finishSignIn(ctx, user, "client", { sessionEpoch });
}

/**
 * The unproven account takes the invited person's username, name and password, with everything
 * its earlier holder set up voided, and leaves every account it made or joined before (for the
 * firm's review: docs/security.md, Round 4), so the person lands in the one they are invited to;
 * refused (409) if it proved its address meanwhile.
 */
async function claimAccount(
  tx: Db,
  ctx: ActivityActorContext,
  userId: string,
  email: string,
  fields: { username: string; name: string; password_hash: string },
): Promise<PublicUser> {
  if (!(await addressUnproven(tx, userId))) throw new TRPCError({ code: "CONFLICT", message: EMAIL_TAKEN });
  await voidEarlierHolder(tx, userId);
  await leaveAccountsOnClaim(tx, ctx, { id: userId, email }, true);
  return claimUser(tx, userId, { ...fields, email_verified_at: ctx.now() });
}

/** Why Google sign-in makes no account: the firm takes clients by invitation only, or the invitation carried is for another address. */
export class GoogleSignUpRefused extends Error {
  constructor(readonly reason: "invite_only" | "other_email") {
    super(reason === "invite_only" ? "registration is by invitation only" : "the invitation carried is for another email address");
  }
}

/** A Google sign-in started from an invitation's form must come back with the invited address. */
export async function checkCarriedInvitation(db: Db, token: string | null, email: string): Promise<void> {
  if (!token) return;
  const invitation = await findInvitationByTokenHash(db, hashToken(token));
  if (invitation && invitation.email.toLowerCase() !== email.toLowerCase()) throw new GoogleSignUpRefused("other_email");
}

/**
 * Run in the transaction that makes a Google account: an open invitation to the address is accepted
 * by it (Google vouched for the address, as the invitation's link would have); without one, a firm
 * that takes clients by invitation only refuses the account.
 */
export async function admitGoogleAccount(tx: Db, ctx: ActivityActorContext, email: string, makeUser: () => Promise<PublicUser>): Promise<PublicUser> {
  // One open invitation per account: Google vouched for the address, so each of them is accepted.
  const invitations = await lockOpenInvitationsFor(tx, email, ctx.now());
  if (invitations.length === 0) {
    if ((await registrationMode(tx)) === "invite_only") throw new GoogleSignUpRefused("invite_only");
    // Signed up by themselves: an individual account of their own, as registration gives.
    const user = await makeUser();
    await createAccountWithOwner(tx, { name: user.name, kind: "individual" }, user.id);
    return user;
  }
  const user = await makeUser();
  for (const invitation of invitations) await acceptFor(tx, ctx, invitation, user);
  return user;
}

/**
 * Google claimed an unproven account: it leaves the accounts it made or joined before (all of them
 * when the firm's invitation names where the person belongs: docs/security.md, Round 4), and an open
 * invitation to its address is accepted by it, as its link would have been.
 */
export async function acceptOpenInvitationFor(tx: Db, ctx: ActivityActorContext, user: PublicUser): Promise<void> {
  const invitations = await lockOpenInvitationsFor(tx, user.email, ctx.now());
  await leaveAccountsOnClaim(tx, ctx, user, invitations.length > 0);
  for (const invitation of invitations) await acceptFor(tx, ctx, invitation, user);
}
