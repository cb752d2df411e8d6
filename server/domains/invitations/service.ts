// The firm's side of invitations (docs/decisions.md, Invitations): invite a client by name and
// email, list, resend (a new link and another 7 days; the old link is dead at once) and revoke.
// Each change and its mail job are written in one transaction, with its activity entry.
import { createAccountWithOwner } from "../accounts/queries.ts";
import { TRPCError } from "@trpc/server";
import { accountLabel, recordActivity, recordSettingChange } from "../activity/record.ts";
import type { Db } from "../../db/types.ts";
import type { AuthedContext, Context, FirmContext } from "../../trpc/context.ts";
import type { FirmScope } from "../../trpc/firm-scope.ts";
import { addAccountAssignee } from "../staff/queries.ts";
import { lockAccountForFirm, openInvitationCountForFirm, contactCountsForFirm } from "../accounts/firm-queries.ts";
import { ACCOUNT_NOT_FOUND, assertHouseholdRole } from "../accounts/service.ts";
import {
  accountIsEmpty,
  deleteAccount,
  deleteInvitation,
  emailHasProvenAccount,
  findInvitationForUpdate,
  findInvitationItem,
  findOpenClientInvitationForEmail,
  handOverPreparedWork,
  hasPendingInvitationTo,
  insertInvitation,
  listInvitations,
  preparedWorkOf,
  registrationMode,
  renewInvitation,
  revokeInvitation,
  setRegistrationMode,
} from "./queries.ts";
import type { CreateInvitationInput, InvitationItem, InvitationStatus, RegistrationMode } from "./schemas.ts";

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const INVITATION_NOT_FOUND = "Invitation not found";
const ACCOUNT_EXISTS = "An account with this email already exists";
const INVITATION_PENDING = "This email already has a pending invitation: resend it instead";
const ALREADY_ACCEPTED = "This invitation has already been accepted";
const INVITATION_REVOKED = "This invitation was revoked";

type InvitationRow = {
  id: string;
  name: string;
  email: string;
  created_at: Date;
  expires_at: Date;
  last_sent_at: Date | null;
  accepted_at: Date | null;
  revoked_at: Date | null;
  account_id: string | null;
};

export function invitationStatus(row: Pick<InvitationRow, "expires_at" | "accepted_at" | "revoked_at">, now: Date): InvitationStatus {
  if (row.accepted_at) return "accepted";
  if (row.revoked_at) return "revoked";
  return row.expires_at.getTime() <= now.getTime() ? "expired" : "pending";
}

function item(row: InvitationRow, invitedBy: string | null, now: Date): InvitationItem {
  const { revoked_at: _revoked, ...rest } = row;
  return { ...rest, status: invitationStatus(row, now), invited_by: invitedBy };
}

export async function invitationList(ctx: FirmContext, input: { limit: number }): Promise<InvitationItem[]> {
  const rows = await listInvitations(ctx.db, ctx.firmScope, input.limit);
  return rows.map(({ invited_by, ...row }) => item(row, invited_by, ctx.now()));
}

/**
 * The mail of this sending: a resend moves the expiry, so an older sending's late retry finds nothing
 * to send. Someone who already uses the portal is asked to join, signed in (docs/security.md, Round 4).
 */
function queueInvitationMail(ctx: Context, tx: Db, invitationId: string, expiresAt: Date, kind: "invitation" | "account-invitation" = "invitation") {
  return ctx.jobs.send("email", { kind, invitationId, expiresAt: expiresAt.toISOString() }, { tx });
}

export async function createInvitation(ctx: FirmContext, input: CreateInvitationInput): Promise<InvitationItem> {
  await ctx.rateLimits.consumeFirmMailToClients(ctx.user.id);
  const now = ctx.now();
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      if (await emailHasProvenAccount(tx, input.email)) throw new TRPCError({ code: "CONFLICT", message: ACCOUNT_EXISTS });
      // To an existing account (docs/decisions.md, "The firm's paths take the account"): one open
      // invitation per address per account, so the same person may be invited to a second one.
      const existing = input.account_id ? await lockAccountForFirm(tx, ctx.firmScope, input.account_id) : undefined;
      if (input.account_id && !existing) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
      // A new individual account has no household role to give.
      assertHouseholdRole(existing ?? { kind: "individual" }, input.household_role);
      // A pending invitation to the address is refused as it always was, wherever it is; an expired
      // one gives way only within the inviter's reach (docs/security.md, "Round 4 (issue 47):
      // invitations replaced within reach"): one beyond it is left alone, and a new account is made.
      if (!existing && (await hasPendingInvitationTo(tx, input.email, now))) throw new TRPCError({ code: "CONFLICT", message: INVITATION_PENDING });
      const open = await findOpenClientInvitationForEmail(tx, input.email, existing ? { accountId: existing.id } : { scope: ctx.firmScope });
      if (open && invitationStatus(open, now) === "pending") throw new TRPCError({ code: "CONFLICT", message: INVITATION_PENDING });
      // The invitee's account exists from now on, so the firm can ask, share, write and book for it
      // before they accept (docs/decisions.md, "Client accounts (issue 32)"); an expired invitation
      // to the address gives way to the new one, and hands over the account it made, with whatever
      // the firm put there.
      const prepared = open ? await preparedWorkOf(tx, open) : null;
      if (open) await deleteInvitation(tx, open.id);
      const reused = open?.account_id ?? null;
      const accountId = existing?.id ?? reused ?? (await createAccountWithOwner(tx, { name: input.name, kind: "individual" }, null));
      // A staff member who reaches only assigned accounts looks after the client they invite.
      if (!existing && !ctx.firmScope.all) await addAccountAssignee(tx, accountId, ctx.user.id);
      const empty = existing
        ? (await contactCountsForFirm(tx, existing.id)).people === 0 && (await openInvitationCountForFirm(tx, existing.id)) === 0
        : true;
      const row = await insertInvitation(tx, {
        account_id: accountId,
        name: input.name,
        email: input.email,
        created_by: ctx.user.id,
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
        // Made for this invitee alone (or handed over from the expired invitation that made it).
        made_account: existing ? false : reused ? open!.made_account : true,
        role: empty ? "owner" : "member",
        household_role: input.household_role ?? null,
        language: input.language ?? "en",
      });
      // The signer slots held for the person move to the invitation that replaces the expired one.
      if (prepared) await handOverPreparedWork(tx, { id: row.id, staff_role: null }, prepared);
      await queueInvitationMail(ctx, tx, row.id, row.expires_at);
      await recordActivity(tx, ctx, {
        action: "invitation.create",
        client: null,
        target: { type: "invitation", id: row.id },
        detail: { name: row.name, email: row.email },
      });
      return item(row, accountLabel(ctx.user), now);
    });
  } catch (err) {
    // Two admins inviting the same address at once: the unique index decides.
    if ((err as { code?: string }).code === "23505") throw new TRPCError({ code: "CONFLICT", message: INVITATION_PENDING });
    throw err;
  }
}

/** Locks an invitation the firm may still act on: neither accepted nor revoked. */
async function openInvitation(tx: Db, scope: FirmScope, id: string): Promise<InvitationRow & { made_account: boolean }> {
  const row = await findInvitationForUpdate(tx, scope, id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: INVITATION_NOT_FOUND });
  if (row.accepted_at) throw new TRPCError({ code: "CONFLICT", message: ALREADY_ACCEPTED });
  if (row.revoked_at) throw new TRPCError({ code: "CONFLICT", message: INVITATION_REVOKED });
  return row;
}

/**
 * Counted against the sender as a staff invitation's resend is (contactInvitations), and among the
 * mail the sender has the portal send to clients (docs/security.md, Round 4).
 */
export async function resendInvitation(ctx: FirmContext, input: { id: string }): Promise<InvitationItem> {
  await ctx.rateLimits.consumeContactInvitation(ctx.user.id);
  await ctx.rateLimits.consumeFirmMailToClients(ctx.user.id);
  const now = ctx.now();
  return ctx.db.transaction().execute(async (tx) => {
    const open = await openInvitation(tx, ctx.firmScope, input.id);
    // An invitation to an account that was there before it may be for someone who already uses the
    // portal (a person in accounts beyond the inviter's reach joins by accepting: firm-service.ts).
    const proven = await emailHasProvenAccount(tx, open.email);
    if (proven && (open.made_account || !open.account_id)) throw new TRPCError({ code: "CONFLICT", message: ACCOUNT_EXISTS });
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    await renewInvitation(tx, open.id, expiresAt);
    await queueInvitationMail(ctx, tx, open.id, expiresAt, proven ? "account-invitation" : "invitation");
    await recordActivity(tx, ctx, {
      action: "invitation.resend",
      client: null,
      target: { type: "invitation", id: open.id },
      detail: { name: open.name, email: open.email },
    });
    const { invited_by, ...row } = await findInvitationItem(tx, open.id);
    return item(row, invited_by, now);
  });
}

export async function revokeInvitationById(ctx: FirmContext, input: { id: string }): Promise<{ success: true }> {
  await ctx.db.transaction().execute(async (tx) => {
    const row = await findInvitationForUpdate(tx, ctx.firmScope, input.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: INVITATION_NOT_FOUND });
    if (row.accepted_at) throw new TRPCError({ code: "CONFLICT", message: ALREADY_ACCEPTED });
    if (row.revoked_at) return;
    await revokeInvitation(tx, row.id, ctx.now());
    await recordActivity(tx, ctx, {
      action: "invitation.revoke",
      client: null,
      target: { type: "invitation", id: row.id },
      detail: { name: row.name, email: row.email },
    });
    // The account the plain invitation made for this invitee alone goes with it while nothing is in
    // it (docs/decisions.md, "The firm's paths take the account"); one with data or people stays.
    if (row.made_account && row.account_id && (await accountIsEmpty(tx, row.account_id))) await deleteAccount(tx, row.account_id);
  });
  return { success: true };
}

export async function registrationSetting(ctx: Pick<Context, "db">): Promise<{ registration: RegistrationMode }> {
  return { registration: await registrationMode(ctx.db) };
}

export async function updateRegistrationSetting(ctx: AuthedContext, input: { registration: RegistrationMode }) {
  await ctx.db.transaction().execute(async (tx) => {
    await setRegistrationMode(tx, input.registration, ctx.now());
    await recordSettingChange(tx, ctx, "registration", input.registration);
  });
  ctx.logger.info({ registration: input.registration }, "firm registration setting changed");
  return registrationSetting(ctx);
}
