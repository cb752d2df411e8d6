// Staff assigned to client accounts (docs/decisions.md, "Assigned accounts (issue 33)"): who at the
// firm an account is assigned to, and the change of that list. A staff member without all_clients
// reaches exactly their assigned accounts (trpc/firm-scope.ts); for everyone else the list says who
// looks after the client. The account itself must be within the asker's reach, else 404.
import { TRPCError } from "@trpc/server";
import type { FirmContext } from "../../trpc/context.ts";
import { firmDisplayNames } from "../activity/queries.ts";
import { recordActivity } from "../activity/record.ts";
import { accountExistsForFirm } from "../accounts/queries.ts";
import { ACCOUNT_NOT_FOUND, accountForFirm } from "../accounts/service.ts";
import { findUserById } from "../auth/queries.ts";
import type { FirmScope } from "../../trpc/firm-scope.ts";
import { STAFF_RIGHTS, type StaffRight } from "../../trpc/staff-rights.ts";
import {
  activeStaffIds,
  assignersForFirm,
  documentAccessOfAccount,
  peopleReachingAccount,
  listAccountAssignees,
  listInvitedAssignees,
  lockAccountForAssignment,
  openStaffInvitationIds,
  replaceAccountAssignees,
  replaceInvitedAssignees,
} from "./queries.ts";
import type { AccessReport, AccountAssignees, AccountReach, SetAccountAssigneesInput } from "./schemas.ts";

export const NOT_STAFF = "Only active members of the firm's team can be assigned";
export const NOT_INVITED_STAFF = "Only open invitations to the firm's team can be assigned ahead";

async function assigneesOf(ctx: FirmContext, accountId: string): Promise<AccountAssignees> {
  const [rows, invited] = await Promise.all([listAccountAssignees(ctx.db, accountId), listInvitedAssignees(ctx.db, accountId)]);
  return {
    account_id: accountId,
    assignees: rows.map(({ staff_role, ...row }) => ({ ...row, role: staff_role ?? "admin" })),
    invited: invited.map(({ staff_role, ...row }) => ({ ...row, role: staff_role ?? "staff" })),
  };
}

export async function accountAssignees(ctx: FirmContext, input: { account_id?: string; user_id?: string }): Promise<AccountAssignees> {
  return assigneesOf(ctx, await accountForFirm(ctx.db, ctx.firmScope, input, ACCOUNT_NOT_FOUND));
}

/** Replaces the account's assignees; the change is a trail entry of the firm's (the client's own trail does not name staff). */
export async function setAccountAssignees(ctx: FirmContext, input: SetAccountAssigneesInput): Promise<AccountAssignees> {
  if (!(await accountExistsForFirm(ctx.db, ctx.firmScope, input.id))) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
  await ctx.db.transaction().execute(async (tx) => {
    const account = await lockAccountForAssignment(tx, input.id);
    if (!account) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
    const staff = new Set(await activeStaffIds(tx, input.user_ids));
    const stranger = input.user_ids.find((id) => !staff.has(id));
    if (stranger) throw new TRPCError({ code: "BAD_REQUEST", message: `${NOT_STAFF}: ${stranger} is not one` });
    // Someone invited to the team is assigned ahead (docs/decisions.md, "Prepared for invited
    // people"): the accounts become theirs in the transaction that accepts the invitation.
    const invitationIds = input.invitation_ids;
    if (invitationIds) {
      const open = new Set(await openStaffInvitationIds(tx, invitationIds));
      const other = invitationIds.find((id) => !open.has(id));
      if (other) throw new TRPCError({ code: "BAD_REQUEST", message: `${NOT_INVITED_STAFF}: ${other} is not one` });
    }
    const { added, removed } = await replaceAccountAssignees(tx, account.id, input.user_ids);
    const invited = invitationIds ? await replaceInvitedAssignees(tx, account.id, invitationIds) : { added: [], removed: [] };
    if (added.length + removed.length + invited.added.length + invited.removed.length === 0) return;
    await recordActivity(tx, ctx, {
      action: "account.assign",
      client: null,
      target: { type: "account", id: account.id },
      detail: {
        account: account.name,
        added,
        removed,
        ...(invited.added.length + invited.removed.length > 0 ? { invited_added: invited.added, invited_removed: invited.removed } : {}),
      },
    });
  });
  return assigneesOf(ctx, input.id);
}

/**
 * The account's access report (the activity right; the account within reach): who at the firm can
 * see it and why, and who opened its documents and when.
 */
export async function accessReport(ctx: FirmContext, input: { id: string; limit: number }): Promise<AccessReport> {
  if (!(await accountExistsForFirm(ctx.db, ctx.firmScope, input.id))) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
  const [people, rows] = await Promise.all([peopleReachingAccount(ctx.db, input.id), documentAccessOfAccount(ctx.db, input.id, input.limit)]);
  const names = await firmDisplayNames(
    ctx.db,
    rows.map((row) => row.actor_id),
  );
  return {
    account_id: input.id,
    people: people.map(({ staff_role, staff_rights, ...person }) => {
      const role = staff_role ?? "admin";
      const rights =
        role === "staff" ? staff_rights.filter((r): r is StaffRight => (STAFF_RIGHTS as readonly string[]).includes(r)) : [...STAFF_RIGHTS];
      const reason = role !== "staff" ? role : rights.includes("all_clients") ? "all_clients" : "assigned";
      return { ...person, role, rights, reason };
    }),
    // Who opened a document, by their name now (the trail's label, their login name, once they are gone).
    items: rows.map((row) => ({
      ...row,
      actor_label: (row.actor_id && names.get(row.actor_id)?.display) || row.actor_label,
      action: row.action as AccessReport["items"][number]["action"],
    })),
  };
}

const EVERY_ACCOUNT: FirmScope = { all: true };

/** Whether `scope` reaches the client `who` names, resolved as the client pages resolve it (accountForFirm). */
async function scopeReaches(ctx: FirmContext, scope: FirmScope, who: { account_id?: string; user_id?: string }): Promise<boolean> {
  try {
    await accountForFirm(ctx.db, scope, who, ACCOUNT_NOT_FOUND);
    return true;
  } catch (err) {
    // A person of several accounts is a client the scope reaches; only a 404 means it does not.
    if (err instanceof TRPCError && err.code === "CONFLICT") return true;
    if (err instanceof TRPCError && err.code === "NOT_FOUND") return false;
    throw err;
  }
}

/**
 * Why a client's page does not open for the asker (docs/security.md, "Assigned accounts"): every
 * client path keeps answering 404 alike for a missing and an
 * unassigned account; this one answer tells a staff member on assigned accounts that a client they
 * were linked to exists but is not assigned to them, and who may change that. It says nothing of the
 * account (no name, no kind), and only to the firm's own people, who hold its id from a link.
 */
export async function accountReach(ctx: FirmContext, input: { account_id?: string; user_id?: string }): Promise<AccountReach> {
  const notFound: AccountReach = { reach: "not_found", assigners: [] };
  // A person id must be a client's: the firm's own people have no client page.
  if (input.account_id === undefined && input.user_id !== undefined && (await findUserById(ctx.db, input.user_id))?.is_admin !== false)
    return notFound;
  if (await scopeReaches(ctx, ctx.firmScope, input)) return { reach: "reached", assigners: [] };
  if (ctx.firmScope.all || !(await scopeReaches(ctx, EVERY_ACCOUNT, input))) return notFound;
  const assigners = await assignersForFirm(ctx.db);
  return { reach: "not_assigned", assigners: assigners.map((person) => ({ name: person.name, role: person.staff_role ?? "admin" })) };
}
