// An account's people, by its own contacts (docs/decisions.md, "An account's people"): any contact
// lists them; an owner invites another person by an emailed single-use link (the invitations
// domain's links, joining this account as a member) and removes people, never leaving the account
// without an owner. Each change, its mail job and its activity entry are one transaction.
import { TRPCError } from "@trpc/server";
import { accountClient, recordActivity } from "../activity/record.ts";
import type { CurrentAccount } from "../accounts/schemas.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { deleteInvitation, findOpenClientInvitationForEmail, handOverPreparedWork, preparedWorkOf } from "../invitations/queries.ts";
import { invitationStatus } from "../invitations/service.ts";
import {
  countOwnersForUpdate,
  deleteContact,
  emailIsAccountContact,
  findContactForUpdate,
  insertAccountInvitation,
  listAccountContacts,
  listPendingAccountInvitations,
  setContactHouseholdRole,
} from "./queries.ts";
import { VERIFY_FIRST } from "./messages.ts";
import type { ContactItem, InviteContactInput } from "./schemas.ts";
import { assertHouseholdRole } from "../accounts/service.ts";
import type { HouseholdRole } from "../../db/types.ts";

type ClientContext = AuthedContext & { account: CurrentAccount };

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const OWNERS_ONLY = "Only an owner of this account can change its people";
export const ALREADY_CONTACT = "This person is already in this account";
export const INVITATION_PENDING = "This email already has a pending invitation";
export const CONTACT_NOT_FOUND = "Person not found in this account";
export const LAST_OWNER = "An account needs an owner: you are its only one";

function assertOwner(ctx: ClientContext): void {
  if (ctx.account.role !== "owner") throw new TRPCError({ code: "FORBIDDEN", message: OWNERS_ONLY });
}

export async function listContacts(ctx: ClientContext): Promise<ContactItem[]> {
  const joined = await listAccountContacts(ctx.db, ctx.account.id);
  const invited = await listPendingAccountInvitations(ctx.db, ctx.account.id, ctx.now());
  return [
    ...joined.map((c) => ({
      user_id: c.user_id,
      name: c.name || c.username || c.email,
      email: c.email,
      role: c.role,
      household_role: c.household_role,
      status: "joined" as const,
      since: c.created_at,
    })),
    ...invited.map((i) => ({
      user_id: null,
      name: i.name,
      email: i.email,
      role: i.role,
      household_role: i.household_role,
      status: "invited" as const,
      since: i.created_at,
    })),
  ];
}

export async function inviteContact(ctx: ClientContext, input: InviteContactInput): Promise<ContactItem> {
  assertOwner(ctx);
  assertHouseholdRole(ctx.account, input.household_role);
  // The invitation goes out under the firm's name and names the inviter by their address: only an
  // address its holder proved may do that (docs/security.md, Round 4).
  if (!ctx.user.email_verified) throw new TRPCError({ code: "FORBIDDEN", message: VERIFY_FIRST });
  // Each invitation is a row and an email to an address nobody here has proven.
  await ctx.rateLimits.consumeContactInvitation(ctx.user.id);
  const now = ctx.now();
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      if (await emailIsAccountContact(tx, ctx.account.id, input.email)) throw new TRPCError({ code: "CONFLICT", message: ALREADY_CONTACT });
      // One open invitation per address per account (the invitations' unique index): an expired one
      // to this account gives way, handing over the signer slots the firm held for the person
      // (docs/decisions.md, "Prepared for invited people"); one to another account is that account's business.
      const open = await findOpenClientInvitationForEmail(tx, input.email, { accountId: ctx.account.id });
      if (open && invitationStatus(open, now) === "pending") throw new TRPCError({ code: "CONFLICT", message: INVITATION_PENDING });
      const prepared = open ? await preparedWorkOf(tx, open) : null;
      if (open) await deleteInvitation(tx, open.id);
      const row = await insertAccountInvitation(tx, {
        account_id: ctx.account.id,
        name: input.name,
        email: input.email,
        household_role: input.household_role ?? null,
        created_by: ctx.user.id,
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      if (prepared) await handOverPreparedWork(tx, { id: row.id, staff_role: null }, prepared);
      await ctx.jobs.send("email", { kind: "account-invitation", invitationId: row.id, expiresAt: row.expires_at.toISOString() }, { tx });
      await recordActivity(tx, ctx, {
        action: "invitation.create",
        client: accountClient(ctx.account),
        target: { type: "invitation", id: row.id },
        detail: { name: row.name, email: row.email },
      });
      return {
        user_id: null,
        name: row.name,
        email: row.email,
        role: row.role,
        household_role: row.household_role,
        status: "invited" as const,
        since: row.created_at,
      };
    });
  } catch (err) {
    if ((err as { code?: string }).code === "23505") throw new TRPCError({ code: "CONFLICT", message: INVITATION_PENDING });
    throw err;
  }
}

/** An owner says who a person of their household is: taxpayer, spouse or dependent (null: not said). */
export async function updateContactRole(ctx: ClientContext, input: { user_id: string; household_role: HouseholdRole | null }): Promise<ContactItem> {
  assertOwner(ctx);
  assertHouseholdRole(ctx.account, input.household_role);
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await setContactHouseholdRole(tx, ctx.account.id, input.user_id, input.household_role))) {
      throw new TRPCError({ code: "NOT_FOUND", message: CONTACT_NOT_FOUND });
    }
    await recordActivity(tx, ctx, {
      action: "account.contact_update",
      client: accountClient(ctx.account),
      target: { type: "user", id: input.user_id },
      detail: { changes: { household_role: input.household_role } },
    });
  });
  const updated = (await listContacts(ctx)).find((c) => c.user_id === input.user_id);
  if (!updated) throw new TRPCError({ code: "NOT_FOUND", message: CONTACT_NOT_FOUND });
  return updated;
}

/** The person loses the account at once: their next request for its data is a 404, their open streams for it end. */
export async function removeContact(ctx: ClientContext, input: { user_id: string }): Promise<{ success: true }> {
  assertOwner(ctx);
  await ctx.db.transaction().execute(async (tx) => {
    const owners = await countOwnersForUpdate(tx, ctx.account.id);
    const contact = await findContactForUpdate(tx, ctx.account.id, input.user_id);
    if (!contact) throw new TRPCError({ code: "NOT_FOUND", message: CONTACT_NOT_FOUND });
    if (contact.role === "owner" && owners <= 1) throw new TRPCError({ code: "CONFLICT", message: LAST_OWNER });
    await deleteContact(tx, ctx.account.id, contact.user_id);
    await recordActivity(tx, ctx, {
      action: "account.contact_remove",
      client: accountClient(ctx.account),
      target: { type: "user", id: contact.user_id },
      detail: { name: contact.name || contact.username || contact.email, email: contact.email },
    });
  });
  return { success: true };
}
