// The firm's people (docs/decisions.md, "Staff roles and rights (issue 33)"): list them, invite one
// (a staff invitation, accepted through the client invitation's path, then a second factor to enrol),
// change a role, rights or activation, and transfer ownership. Every change is in the trail, naming
// who made it, in the transaction of the change.
import { TRPCError } from "@trpc/server";
import { invalidateUserSessions } from "../../auth/session.ts";
import type { Db } from "../../db/types.ts";
import type { FirmContext } from "../../trpc/context.ts";
import { mayUse, STAFF_RIGHTS, type StaffRight, type StaffRole } from "../../trpc/staff-rights.ts";
import { recordActivity } from "../activity/record.ts";
import {
  deleteInvitation,
  handOverPreparedWork,
  preparedWorkOf,
  emailHasProvenAccount,
  findOpenStaffInvitationForEmail,
  hasPendingInvitationTo,
  renewInvitation,
  revokeInvitation,
} from "../invitations/queries.ts";
import { invitationStatus } from "../invitations/service.ts";
import {
  assignedAccountsOf,
  findStaffForUpdate,
  findStaffInvitationForUpdate,
  insertStaffInvitation,
  listOpenStaffInvitations,
  listStaffForFirm,
  pendingAssignedAccountsOf,
  setStaffFields,
} from "./queries.ts";
import type { AdminMe, CreateStaffInput, StaffInvitation, StaffMember, UpdateStaffInput } from "./schemas.ts";

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const STAFF_NOT_FOUND = "Staff member not found";
export const ACCOUNT_EXISTS = "An account with this email already exists";
export const INVITATION_PENDING = "This email already has a pending invitation";
export const ADMINS_ONLY = "Only the owner or an admin may give the admin role or change an admin";
export const RIGHTS_NOT_HELD = "You may only give rights you hold yourself";
export const OWNER_STAYS = "The owner cannot be deactivated or demoted: transfer ownership first";
export const NOT_YOURSELF = "You cannot deactivate yourself";
export const TRANSFER_TARGET = "Ownership goes to an active admin or staff member other than you";
const INVITATION_NOT_FOUND = "Invitation not found";
const INVITATION_ACCEPTED = "This invitation has already been accepted: deactivate the person instead";
const INVITATION_REVOKED = "This invitation was revoked";
export const OWNER_ONLY = "Only the firm's owner may transfer ownership";
export const TRANSFER_ALONE = "Transfer ownership on its own, without other changes";

type StaffContext = FirmContext;

type StaffRow = NonNullable<Awaited<ReturnType<typeof findStaffForUpdate>>>;

function knownRights(rights: string[]): StaffRight[] {
  return rights.filter((r): r is StaffRight => (STAFF_RIGHTS as readonly string[]).includes(r));
}

/** The people as the Team tab shows them, each with the accounts assigned to them that the asker reaches. */
async function members(ctx: StaffContext, db: Db, rows: StaffRow[]): Promise<StaffMember[]> {
  const assigned = await assignedAccountsOf(
    db,
    ctx.firmScope,
    rows.map((row) => row.id),
  );
  return rows.map(({ staff_role, staff_rights, ...rest }) => ({
    ...rest,
    role: staff_role ?? "admin",
    rights: knownRights(staff_rights),
    assigned_accounts: assigned.filter((a) => a.user_id === rest.id).map(({ id, name }) => ({ id, name })),
  }));
}

async function member(ctx: StaffContext, db: Db, row: StaffRow): Promise<StaffMember> {
  return (await members(ctx, db, [row]))[0]!;
}

export async function staffList(ctx: StaffContext): Promise<StaffMember[]> {
  return members(ctx, ctx.db, await listStaffForFirm(ctx.db));
}

/** The admin portal's `me`: the person, their role and every right they hold. */
export function adminMe(ctx: StaffContext): AdminMe {
  return { ...ctx.user, role: ctx.staff.role, rights: ctx.staff.role === "staff" ? ctx.staff.rights : [...STAFF_RIGHTS] };
}

/**
 * A staff member holding the `staff` right manages staff, not admins, and hands on only what they
 * hold: the right to manage staff is never a way to more rights than one's own.
 */
function assertMayGrant(ctx: StaffContext, change: { role?: "admin" | "staff"; rights?: StaffRight[]; target?: StaffRole }): void {
  if (ctx.staff.role !== "staff") return;
  if (change.role === "admin" || change.target === "admin" || change.target === "owner") {
    throw new TRPCError({ code: "FORBIDDEN", message: ADMINS_ONLY });
  }
  if (change.rights?.some((right) => !mayUse(ctx.staff, right))) throw new TRPCError({ code: "FORBIDDEN", message: RIGHTS_NOT_HELD });
}

export async function inviteStaff(ctx: StaffContext, input: CreateStaffInput): Promise<StaffInvitation> {
  assertMayGrant(ctx, { role: input.role, rights: input.rights });
  const now = ctx.now();
  // An admin holds every right: nothing is stored for one.
  const rights = input.role === "staff" ? input.rights : [];
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      if (await emailHasProvenAccount(tx, input.email)) throw new TRPCError({ code: "CONFLICT", message: ACCOUNT_EXISTS });
      // A pending invitation to the address, of either kind, is refused as it always was; only an
      // expired staff invitation gives way, handing over the clients assigned ahead. A client's
      // invitation (and the signer slots held for it) is not the team's to replace (docs/security.md,
      // "Round 4 (issue 47): invitations replaced within reach").
      if (await hasPendingInvitationTo(tx, input.email, now)) throw new TRPCError({ code: "CONFLICT", message: INVITATION_PENDING });
      const open = await findOpenStaffInvitationForEmail(tx, input.email);
      const prepared = open ? await preparedWorkOf(tx, open) : null;
      if (open) await deleteInvitation(tx, open.id);
      const row = await insertStaffInvitation(tx, {
        name: input.name,
        email: input.email,
        created_by: ctx.user.id,
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
        staff_role: input.role,
        staff_rights: rights,
      });
      if (prepared) await handOverPreparedWork(tx, { id: row.id, staff_role: input.role }, prepared);
      await ctx.jobs.send("email", { kind: "staff-invitation", invitationId: row.id, expiresAt: row.expires_at.toISOString() }, { tx });
      await recordActivity(tx, ctx, {
        action: "staff.invite",
        client: null,
        target: { type: "invitation", id: row.id },
        detail: { name: row.name, email: row.email, role: input.role, rights },
      });
      const assigned = await pendingAssignedAccountsOf(tx, ctx.firmScope, [row.id]);
      return invitationItem({ ...row, staff_role: input.role }, now, assigned);
    });
  } catch (err) {
    // Two invitations of the same address at once: the unique index of open invitations decides.
    if ((err as { code?: string }).code === "23505") throw new TRPCError({ code: "CONFLICT", message: INVITATION_PENDING });
    throw err;
  }
}

function invitationItem(
  row: { id: string; name: string; email: string; expires_at: Date; staff_role: "admin" | "staff" | null; staff_rights: string[] },
  now: Date,
  assigned: readonly { invitation_id: string; id: string; name: string }[],
): StaffInvitation {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.staff_role ?? "staff",
    rights: knownRights(row.staff_rights),
    expires_at: row.expires_at,
    status: invitationStatus({ ...row, accepted_at: null, revoked_at: null }, now) === "expired" ? "expired" : "pending",
    assigned_accounts: assigned.filter((a) => a.invitation_id === row.id).map(({ id, name }) => ({ id, name })),
  };
}

/** The staff invitations still open, for the Team tab. */
export async function staffInvitationList(ctx: StaffContext): Promise<StaffInvitation[]> {
  const rows = await listOpenStaffInvitations(ctx.db);
  const assigned = await pendingAssignedAccountsOf(
    ctx.db,
    ctx.firmScope,
    rows.map((row) => row.id),
  );
  return rows.map((row) => invitationItem(row, ctx.now(), assigned));
}

/** Withdraws a staff invitation: its link stops working. Accepted ones are people now (deactivate them instead). */
export async function revokeStaffInvitation(ctx: StaffContext, input: { id: string }): Promise<{ success: true }> {
  await ctx.db.transaction().execute(async (tx) => {
    const row = await findStaffInvitationForUpdate(tx, input.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: INVITATION_NOT_FOUND });
    if (row.accepted_at) throw new TRPCError({ code: "CONFLICT", message: INVITATION_ACCEPTED });
    if (row.revoked_at) return;
    await revokeInvitation(tx, row.id, ctx.now());
    await recordActivity(tx, ctx, {
      action: "invitation.revoke",
      client: null,
      target: { type: "invitation", id: row.id },
      detail: { name: row.name, email: row.email, role: row.staff_role },
    });
  });
  return { success: true };
}

/**
 * Sends a staff invitation not yet accepted again: another 7 days and a new link, made as the mail is
 * written; the earlier link is dead at once (its token is cleared here). Counted against the sender
 * as an account owner's invitations are, so a session cannot turn the portal into a mailer.
 */
export async function resendStaffInvitation(ctx: StaffContext, input: { id: string }): Promise<StaffInvitation> {
  await ctx.rateLimits.consumeContactInvitation(ctx.user.id);
  const now = ctx.now();
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findStaffInvitationForUpdate(tx, input.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: INVITATION_NOT_FOUND });
    if (row.accepted_at) throw new TRPCError({ code: "CONFLICT", message: INVITATION_ACCEPTED });
    if (row.revoked_at) throw new TRPCError({ code: "CONFLICT", message: INVITATION_REVOKED });
    assertMayGrant(ctx, { role: row.staff_role ?? "staff", rights: knownRights(row.staff_rights) });
    if (await emailHasProvenAccount(tx, row.email)) throw new TRPCError({ code: "CONFLICT", message: ACCOUNT_EXISTS });
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    await renewInvitation(tx, row.id, expiresAt);
    await ctx.jobs.send("email", { kind: "staff-invitation", invitationId: row.id, expiresAt: expiresAt.toISOString() }, { tx });
    await recordActivity(tx, ctx, {
      action: "invitation.resend",
      client: null,
      target: { type: "invitation", id: row.id },
      detail: { name: row.name, email: row.email, role: row.staff_role },
    });
    return invitationItem({ ...row, expires_at: expiresAt }, now, await pendingAssignedAccountsOf(tx, ctx.firmScope, [row.id]));
  });
}

export async function updateStaff(ctx: StaffContext, input: UpdateStaffInput): Promise<StaffMember> {
  if (input.role === "owner") {
    if (ctx.staff.role !== "owner") throw new TRPCError({ code: "FORBIDDEN", message: OWNER_ONLY });
    if (input.rights !== undefined || input.active !== undefined) throw new TRPCError({ code: "BAD_REQUEST", message: TRANSFER_ALONE });
    return transferOwnership(ctx, input);
  }
  const role = input.role;
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findStaffForUpdate(tx, input.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: STAFF_NOT_FOUND });
    const before = await member(ctx, tx, row);
    assertMayGrant(ctx, { role, rights: input.rights, target: before.role });
    if (before.role === "owner" && (role !== undefined || input.active === false)) {
      throw new TRPCError({ code: "CONFLICT", message: OWNER_STAYS });
    }
    if (input.active === false && row.id === ctx.user.id) throw new TRPCError({ code: "CONFLICT", message: NOT_YOURSELF });
    const fields: Parameters<typeof setStaffFields>[2] = {};
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (role !== undefined && role !== before.role) {
      fields.staff_role = role;
      changes.role = { from: before.role, to: role };
    }
    if (input.rights !== undefined && !sameRights(input.rights, before.rights)) {
      fields.staff_rights = input.rights;
      changes.rights = { from: before.rights, to: input.rights };
    }
    if (input.active !== undefined && input.active !== before.active) {
      fields.deactivated_at = input.active ? null : ctx.now();
      changes.active = { from: before.active, to: input.active };
    }
    if (Object.keys(changes).length === 0) return before;
    await setStaffFields(tx, row.id, fields);
    // Deactivation ends every session at once: deleting their rows tells every instance (the
    // session-end trigger), and the raised epoch voids a sign-in half done.
    if (input.active === false) await invalidateUserSessions(tx, row.id);
    await recordActivity(tx, ctx, {
      action: "staff.update",
      client: null,
      target: { type: "user", id: row.id },
      detail: { name: row.name, email: row.email, changes },
    });
    const after = await findStaffForUpdate(tx, row.id);
    return member(ctx, tx, after!);
  });
}

function sameRights(a: StaffRight[], b: StaffRight[]): boolean {
  return a.length === b.length && a.every((r) => b.includes(r));
}

/** The owner hands ownership to another active member of the firm and becomes an admin. */
async function transferOwnership(ctx: StaffContext, input: { id: string }): Promise<StaffMember> {
  return ctx.db.transaction().execute(async (tx) => {
    const me = await findStaffForUpdate(tx, ctx.user.id);
    const target = await findStaffForUpdate(tx, input.id);
    if (!target) throw new TRPCError({ code: "NOT_FOUND", message: STAFF_NOT_FOUND });
    if (!me || me.staff_role !== "owner" || target.id === me.id || !target.active) {
      throw new TRPCError({ code: "CONFLICT", message: TRANSFER_TARGET });
    }
    // One owner at a time (a unique index): the owner steps down first.
    await setStaffFields(tx, me.id, { staff_role: "admin" });
    await setStaffFields(tx, target.id, { staff_role: "owner" });
    await recordActivity(tx, ctx, {
      action: "staff.transfer_ownership",
      client: null,
      target: { type: "user", id: target.id },
      detail: { name: target.name, email: target.email, from_role: target.staff_role ?? "admin" },
    });
    return member(ctx, tx, (await findStaffForUpdate(tx, target.id))!);
  });
}
