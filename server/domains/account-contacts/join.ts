// A person already signed in accepts an invitation to join an account (docs/decisions.md, "An
// account's people"): the account is added to their accounts list and becomes the session's current
// one. The invitation must be to their own address, so a forwarded link joins nobody else.
import { TRPCError } from "@trpc/server";
import { addContact, findReachableAccount, setSessionAccount } from "../accounts/queries.ts";
import type { CurrentAccount } from "../accounts/schemas.ts";
import { accountClient, recordActivity } from "../activity/record.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { takeOverPreparedWork, usableInvitation } from "../invitations/accept.ts";
import { findInvitationAccount, markInvitationAccepted } from "../invitations/queries.ts";
import { INVALID_INVITATION } from "../invitations/schemas.ts";

export const OTHER_ADDRESS = "This invitation is for another email address: sign in with the account of the address it was sent to";
const ALREADY_USED = "This invitation has already been used.";

export async function joinAccount(ctx: AuthedContext, input: { token: string }): Promise<CurrentAccount> {
  // Counted as a registration from the address, as looking at a link is: guessing links costs the same.
  await ctx.rateLimits.consumeRegistration(ctx.ip);
  const invitation = await usableInvitation(ctx.db, input.token, ctx.now());
  const joins = await findInvitationAccount(ctx.db, invitation.id);
  // Staff invitations, and the firm's invitations that made a new person's own account, are accepted
  // by a new sign-up; an invitation to an account that was there before it (an owner's of a member,
  // or the firm's of someone who already uses the portal: docs/security.md, Round 4) is joined.
  if (ctx.user.is_admin || invitation.staff_role !== null || !joins?.account_id || (joins.role !== "member" && joins.made_account)) {
    throw new TRPCError({ code: "NOT_FOUND", message: INVALID_INVITATION });
  }
  if (invitation.email.toLowerCase() !== ctx.user.email.toLowerCase()) throw new TRPCError({ code: "FORBIDDEN", message: OTHER_ADDRESS });
  const accountId = joins.account_id;
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await markInvitationAccepted(tx, invitation.id, ctx.user.id, ctx.now()))) throw new TRPCError({ code: "CONFLICT", message: ALREADY_USED });
    await addContact(tx, accountId, ctx.user.id, { role: joins.role, household_role: joins.household_role, notify: joins.notify });
    await takeOverPreparedWork(tx, ctx.now(), invitation, ctx.user);
    const account = await findReachableAccount(tx, ctx.user.id, accountId);
    await recordActivity(tx, ctx, {
      action: "invitation.accept",
      client: account ? accountClient(account) : null,
      target: { type: "invitation", id: invitation.id },
      detail: { email: invitation.email },
    });
    await setSessionAccount(tx, ctx.session.id, accountId);
  });
  const account = await findReachableAccount(ctx.db, ctx.user.id, accountId);
  if (!account) throw new TRPCError({ code: "NOT_FOUND", message: INVALID_INVITATION });
  return account;
}
