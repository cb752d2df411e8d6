import { sql } from "kysely";
import type { Db, HouseholdRole } from "../../db/types.ts";
import type { Language } from "../auth/schemas.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { RegistrationMode } from "./schemas.ts";

const REGISTRATION_KEY = "registration";

export async function registrationMode(db: Db): Promise<RegistrationMode> {
  const row = await db.selectFrom("firm_settings").select("value").where("key", "=", REGISTRATION_KEY).executeTakeFirst();
  return row?.value === "invite_only" ? "invite_only" : "open";
}

export async function setRegistrationMode(db: Db, mode: RegistrationMode, now: Date): Promise<void> {
  await db
    .insertInto("firm_settings")
    .values({ key: REGISTRATION_KEY, value: mode, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: mode, updated_at: now }))
    .execute();
}

const invitationColumns = ["id", "name", "email", "created_at", "expires_at", "last_sent_at", "accepted_at", "revoked_at", "account_id"] as const;

/** Invitations as the firm's list shows them, with who invited. */
function invitationItems(db: Db) {
  return db
    .selectFrom("invitations")
    .leftJoin("users", "users.id", "invitations.created_by")
    .select(invitationColumns.map((c) => `invitations.${c}` as const))
    .select(sql<string | null>`coalesce(users.username, users.email)`.as("invited_by"));
}

/** The firm's list of client invitations: newest first, revoked ones left out (staff invitations are the Team tab's). */
export async function listInvitations(db: Db, scope: FirmScope, limit: number) {
  return invitationItems(db)
    .where(inFirmScope(scope, "invitations.account_id"))
    .where("invitations.revoked_at", "is", null)
    .where("invitations.staff_role", "is", null)
    .orderBy("invitations.created_at", "desc")
    .orderBy("invitations.id", "desc")
    .limit(limit)
    .execute();
}

export async function findInvitationItem(db: Db, id: string) {
  return invitationItems(db).where("invitations.id", "=", id).executeTakeFirstOrThrow();
}

/** A client invitation within the asker's reach (firm-scope.ts), locked; a staff invitation is not the client invitations' paths' to change. */
export async function findInvitationForUpdate(db: Db, scope: FirmScope, id: string) {
  return db
    .selectFrom("invitations")
    .select([...invitationColumns, "made_account"])
    .where("id", "=", id)
    .where("staff_role", "is", null)
    .where(inFirmScope(scope, "invitations.account_id"))
    .forUpdate()
    .executeTakeFirst();
}

export async function findInvitationByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom("invitations")
    .select([...invitationColumns, "created_by", "staff_role", "staff_rights"])
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
}

/**
 * The client invitation to `email` that is neither accepted nor revoked (expired or not), locked, which
 * a new one to the address may replace: with `accountId` the one to that account (one open invitation
 * per address per account); with `scope` the oldest to an account the firm's caller reaches. An
 * invitation beyond the caller's reach, or of the firm's team, is never this lookup's to give
 * (docs/security.md, "Round 4 (issue 47): invitations replaced within reach").
 */
export async function findOpenClientInvitationForEmail(db: Db, email: string, where: { accountId: string } | { scope: FirmScope }) {
  return openInvitationsTo(db, email)
    .select([...invitationColumns, "made_account", "staff_role"])
    .where("staff_role", "is", null)
    .where((eb) => ("accountId" in where ? eb("account_id", "=", where.accountId) : inFirmScope(where.scope, "invitations.account_id")))
    .orderBy("created_at")
    .forUpdate()
    .executeTakeFirst();
}

/** The open (expired or not) invitation of `email` to the firm's team, locked: the one a new staff invitation replaces. */
export async function findOpenStaffInvitationForEmail(db: Db, email: string) {
  return openInvitationsTo(db, email)
    .select([...invitationColumns, "made_account", "staff_role"])
    .where("staff_role", "is not", null)
    .orderBy("created_at")
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Whether any invitation to `email`, of either kind and to any account, is still pending: the firm's
 * new invitation of the address is refused then, whoever's it is, as it always was; the answer says
 * no more than that one exists.
 */
export async function hasPendingInvitationTo(db: Db, email: string, now: Date): Promise<boolean> {
  const row = await openInvitationsTo(db, email).select("id").where("expires_at", ">", now).executeTakeFirst();
  return row !== undefined;
}

function openInvitationsTo(db: Db, email: string) {
  return db
    .selectFrom("invitations")
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null);
}

/**
 * Whether the address belongs to an account that proved it (or to an admin): such an account is
 * the client's already. One that never proved it may be a squatter's, and the invitation is how
 * the real owner claims it (docs/security.md, Round 3).
 */
export async function emailHasProvenAccount(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .where((eb) => eb.or([eb("email_verified_at", "is not", null), eb("is_admin", "=", true)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** The client account with this address that never proved it, which accepting an invitation to it claims. */
export async function findClaimableAccount(db: Db, email: string) {
  return db
    .selectFrom("users")
    .select("id")
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .where("email_verified_at", "is", null)
    .where("is_admin", "=", false)
    .executeTakeFirst();
}

export async function insertInvitation(
  db: Db,
  invitation: {
    name: string;
    email: string;
    created_by: string;
    created_at: Date;
    expires_at: Date;
    account_id: string;
    made_account: boolean;
    role?: "owner" | "member";
    household_role?: HouseholdRole | null;
    language?: Language;
  },
) {
  return db.insertInto("invitations").values(invitation).returning(invitationColumns).executeTakeFirstOrThrow();
}

export async function deleteInvitation(db: Db, id: string): Promise<void> {
  await db.deleteFrom("invitations").where("id", "=", id).execute();
}

/** A new link to come: the current one is dead at once, and the invitation runs until `expiresAt`. */
export async function renewInvitation(db: Db, id: string, expiresAt: Date): Promise<void> {
  await db.updateTable("invitations").set({ token_hash: null, expires_at: expiresAt }).where("id", "=", id).execute();
}

export async function revokeInvitation(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("invitations").set({ revoked_at: now }).where("id", "=", id).execute();
}

/**
 * Gives the invitation the token of the mail about to go out, if it is still open and still the
 * sending that mail was queued for (its expiry); false otherwise.
 */
export async function setInvitationToken(db: Db, id: string, expiresAt: Date, tokenHash: string): Promise<boolean> {
  const result = await db
    .updateTable("invitations")
    .set({ token_hash: tokenHash })
    .where("id", "=", id)
    .where("expires_at", "=", expiresAt)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markInvitationSent(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable("invitations").set({ last_sent_at: at }).where("id", "=", id).execute();
}

/** The acceptance: only while the invitation is open, so of two at once exactly one wins. */
export async function markInvitationAccepted(db: Db, id: string, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("invitations")
    .set({ accepted_at: now, accepted_user_id: userId })
    .where("id", "=", id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The person who accepted takes the language the firm chose for the invitation (docs/i18n.md). */
export async function giveInvitationLanguage(db: Db, invitationId: string, userId: string): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({ language: eb.selectFrom("invitations").select("invitations.language").where("invitations.id", "=", invitationId) }))
    .where("users.id", "=", userId)
    .execute();
}

/** The open invitations to the address (any case; one per account), locked while an account is made for them. */
export async function lockOpenInvitationsFor(db: Db, email: string, now: Date) {
  return (
    db
      .selectFrom("invitations")
      .select(["id", "email"])
      .where(sql<string>`lower(email)`, "=", email.toLowerCase())
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      // A staff invitation is accepted with a password and a second factor, never by a Google account.
      .where("staff_role", "is", null)
      .orderBy("created_at")
      .forUpdate()
      .execute()
  );
}

export async function findInvitationForMail(db: Db, invitationId: string) {
  return db
    .selectFrom("invitations")
    .select(["id", "name", "email", "expires_at", "accepted_at", "revoked_at", "account_id", "language"])
    .where("id", "=", invitationId)
    .executeTakeFirst();
}

/** The account an invitation joins its invitee to, and as what (null account: an invitation from before accounts). */
export async function findInvitationAccount(db: Db, id: string) {
  return db
    .selectFrom("invitations")
    .select(["account_id", "role", "household_role", "notify", "made_account"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * Whether an account made by a revoked plain invitation is empty: no contact, no other open
 * invitation, and none of the data the firm may have put there before anyone joined.
 */
export async function accountIsEmpty(db: Db, accountId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom("account_contacts").select("user_id").where("account_id", "=", accountId)).as("contacts"),
      eb
        .exists(
          eb
            .selectFrom("invitations")
            .select("id")
            .where("account_id", "=", accountId)
            .where("accepted_at", "is", null)
            .where("revoked_at", "is", null),
        )
        .as("invited"),
      eb.exists(eb.selectFrom("documents").select("id").where("account_id", "=", accountId)).as("documents"),
      eb.exists(eb.selectFrom("folders").select("id").where("account_id", "=", accountId)).as("folders"),
      eb.exists(eb.selectFrom("document_requests").select("id").where("account_id", "=", accountId)).as("requests"),
      eb.exists(eb.selectFrom("messages").select("id").where("account_id", "=", accountId)).as("messages"),
      eb.exists(eb.selectFrom("appointments").select("id").where("account_id", "=", accountId)).as("appointments"),
    ])
    .executeTakeFirstOrThrow();
  return !Object.values(row).some(Boolean);
}

export async function deleteAccount(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom("accounts").where("id", "=", accountId).execute();
}

/**
 * What was prepared for an invited person (docs/decisions.md, "Prepared for invited people"), by the
 * invitation's kind: a staff invitation's accounts assigned ahead, a client invitation's signer slots.
 * Read off an expired invitation before it is deleted, for handOverPreparedWork to give to the
 * invitation that replaces it.
 */
export type PreparedWork = { readonly forStaff: true; readonly accountIds: string[] } | { readonly forStaff: false; readonly signerIds: string[] };

export async function preparedWorkOf(db: Db, invitation: { id: string; staff_role: string | null }): Promise<PreparedWork> {
  if (invitation.staff_role !== null) {
    const accounts = await db.selectFrom("invitation_assignments").select("account_id").where("invitation_id", "=", invitation.id).execute();
    return { forStaff: true, accountIds: accounts.map((a) => a.account_id) };
  }
  const signers = await db
    .selectFrom("signature_signers")
    .select("id")
    .where("invitation_id", "=", invitation.id)
    .where("user_id", "is", null)
    .execute();
  return { forStaff: false, signerIds: signers.map((s) => s.id) };
}

/**
 * Gives the prepared work to the invitation that replaces its own, only if that one is of the same
 * kind: a client's signer slots never go to a staff invitation, nor a staff member's clients to a
 * client's (docs/security.md, "Round 4 (issue 47): invitations replaced within reach").
 */
export async function handOverPreparedWork(db: Db, to: { id: string; staff_role: string | null }, work: PreparedWork): Promise<void> {
  if (work.forStaff !== (to.staff_role !== null)) return;
  if (work.forStaff && work.accountIds.length > 0) {
    await db
      .insertInto("invitation_assignments")
      .values(work.accountIds.map((account_id) => ({ invitation_id: to.id, account_id })))
      .onConflict((oc) => oc.columns(["invitation_id", "account_id"]).doNothing())
      .execute();
  }
  if (!work.forStaff && work.signerIds.length > 0) {
    await db.updateTable("signature_signers").set({ invitation_id: to.id }).where("id", "in", work.signerIds).where("user_id", "is", null).execute();
  }
}

/**
 * The signer slots held for this invitation, bound to the user who accepted it: only slots written
 * to the invitation's own address, so the person bound is the one whose mailbox the link (or Google)
 * proved (docs/security.md, "Prepared for invited people"). Answers the slots bound.
 */
export async function bindInvitedSigners(db: Db, invitationId: string, user: { id: string; email: string }) {
  return db
    .updateTable("signature_signers")
    .set({ user_id: user.id })
    .where("invitation_id", "=", invitationId)
    .where("user_id", "is", null)
    .where(sql<string>`lower(email)`, "=", user.email.toLowerCase())
    .returning(["id", "request_id", "position"])
    .execute();
}

/**
 * What waits in the portal for an invitee once they accept (their invitation mail says so): the
 * signatures held for this invitation, and the account's open organizers and document requests.
 */
export async function waitingForInvitee(db: Db, invitationId: string, accountId: string | null) {
  const counts = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("signature_signers as s")
        .innerJoin("signature_requests as r", "r.id", "s.request_id")
        .select((e) => e.fn.countAll<string>().as("n"))
        .where("s.invitation_id", "=", invitationId)
        .where("s.user_id", "is", null)
        .where("s.status", "=", "pending")
        .where("r.status", "in", ["sent", "partially_signed"])
        .as("signatures"),
      eb
        .selectFrom("organizers")
        .select((e) => e.fn.countAll<string>().as("n"))
        .where("account_id", "=", accountId)
        .where("status", "in", ["sent", "reopened"])
        .as("organizers"),
      eb
        .selectFrom("document_requests")
        .select((e) => e.fn.countAll<string>().as("n"))
        .where("account_id", "=", accountId)
        .where("status", "=", "open")
        .as("requests"),
    ])
    .executeTakeFirstOrThrow();
  return { signatures: Number(counts.signatures ?? 0), organizers: Number(counts.organizers ?? 0), requests: Number(counts.requests ?? 0) };
}
