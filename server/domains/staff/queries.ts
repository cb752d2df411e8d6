import { sql } from "kysely";
import type { Db } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { StaffRight, StaffRole } from "../../trpc/staff-rights.ts";

const staffColumns = [
  "id",
  "name",
  "email",
  "username",
  "created_at",
  "staff_role",
  "staff_rights",
  sql<boolean>`deactivated_at is null`.as("active"),
] as const;

/** The firm's people: every admin user, the owner first, then by name. */
export async function listStaffForFirm(db: Db) {
  return db
    .selectFrom("users")
    .select(staffColumns)
    .where("is_admin", "=", true)
    .orderBy(sql`staff_role = 'owner'`, "desc")
    .orderBy("name")
    .orderBy("id")
    .execute();
}

/**
 * The client accounts assigned to these people, by name, narrowed to the accounts the asker reaches
 * (a staff member on assigned accounts does not learn the names of other clients from the Team tab).
 */
export async function assignedAccountsOf(db: Db, scope: FirmScope, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom("account_assignees as aa")
    .innerJoin("accounts as a", "a.id", "aa.account_id")
    .select(["aa.user_id", "a.id", "a.name"])
    .where("aa.user_id", "in", userIds)
    .where(inFirmScope(scope, "aa.account_id"))
    .orderBy("a.name")
    .orderBy("a.id")
    .execute();
}

/** One of the firm's people, locked for a change; undefined for anyone else (a client, a missing id). */
export async function findStaffForUpdate(db: Db, id: string) {
  return db.selectFrom("users").select(staffColumns).where("id", "=", id).where("is_admin", "=", true).forUpdate().executeTakeFirst();
}

export async function setStaffFields(
  db: Db,
  id: string,
  fields: { staff_role?: StaffRole; staff_rights?: StaffRight[]; deactivated_at?: Date | null },
): Promise<void> {
  await db.updateTable("users").set(fields).where("id", "=", id).execute();
}

/** A person made by a staff invitation's acceptance becomes one of the firm's people. */
export async function makeStaffMember(db: Db, id: string, role: "admin" | "staff", rights: string[]): Promise<void> {
  await db.updateTable("users").set({ is_admin: true, staff_role: role, staff_rights: rights }).where("id", "=", id).execute();
}

export async function insertStaffInvitation(
  db: Db,
  invitation: {
    name: string;
    email: string;
    created_by: string;
    created_at: Date;
    expires_at: Date;
    staff_role: "admin" | "staff";
    staff_rights: string[];
  },
) {
  return db
    .insertInto("invitations")
    .values(invitation)
    .returning(["id", "name", "email", "expires_at", "staff_role", "staff_rights"])
    .executeTakeFirstOrThrow();
}

/** What a staff invitation's mail needs, while it is one. */
export async function findStaffInvitationForMail(db: Db, invitationId: string) {
  return db
    .selectFrom("invitations")
    .select(["id", "name", "email", "expires_at", "accepted_at", "revoked_at", "staff_role", "staff_rights"])
    .where("id", "=", invitationId)
    .where("staff_role", "is not", null)
    .executeTakeFirst();
}

/** Staff invitations neither accepted nor revoked (pending or expired), newest first. */
export async function listOpenStaffInvitations(db: Db) {
  return db
    .selectFrom("invitations")
    .select(["id", "name", "email", "expires_at", "staff_role", "staff_rights", "accepted_at", "revoked_at"])
    .where("staff_role", "is not", null)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** A staff invitation, locked, while it is one. */
export async function findStaffInvitationForUpdate(db: Db, id: string) {
  return db
    .selectFrom("invitations")
    .select(["id", "name", "email", "expires_at", "staff_role", "staff_rights", "accepted_at", "revoked_at"])
    .where("id", "=", id)
    .where("staff_role", "is not", null)
    .forUpdate()
    .executeTakeFirst();
}

/** An account's assigned people (whom it is assigned to: docs/decisions.md, "Assigned accounts (issue 33)"), by name. */
export async function listAccountAssignees(db: Db, accountId: string) {
  return db
    .selectFrom("account_assignees as aa")
    .innerJoin("users as u", "u.id", "aa.user_id")
    .select(["u.id", "u.name", "u.email", "u.staff_role", sql<boolean>`u.deactivated_at is null`.as("active"), "aa.assigned_at"])
    .where("aa.account_id", "=", accountId)
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
}

/** Which of these ids are active people of the firm (what an account may be assigned to). */
export async function activeStaffIds(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("users")
    .select("id")
    .where("id", "in", ids)
    .where("is_admin", "=", true)
    .where("deactivated_at", "is", null)
    .execute();
  return rows.map((r) => r.id);
}

/** Locks an account for a change of its assignees (two changes at once apply one after the other). */
export async function lockAccountForAssignment(db: Db, accountId: string) {
  return db.selectFrom("accounts").select(["id", "name"]).where("id", "=", accountId).forUpdate().executeTakeFirst();
}

/** Makes the account's assignees exactly `ids`; answers who was added and who removed. */
export async function replaceAccountAssignees(db: Db, accountId: string, ids: readonly string[]): Promise<{ added: string[]; removed: string[] }> {
  let removeQuery = db.deleteFrom("account_assignees").where("account_id", "=", accountId);
  if (ids.length > 0) removeQuery = removeQuery.where("user_id", "not in", ids);
  const removed = await removeQuery.returning("user_id").execute();
  const added =
    ids.length === 0
      ? []
      : await db
          .insertInto("account_assignees")
          .values(ids.map((user_id) => ({ account_id: accountId, user_id })))
          .onConflict((oc) => oc.columns(["account_id", "user_id"]).doNothing())
          .returning("user_id")
          .execute();
  return { added: added.map((r) => r.user_id), removed: removed.map((r) => r.user_id) };
}

/** Assigns one person to an account (a staff member's own invitation); nothing when already assigned. */
export async function addAccountAssignee(db: Db, accountId: string, userId: string): Promise<void> {
  await db
    .insertInto("account_assignees")
    .values({ account_id: accountId, user_id: userId })
    .onConflict((oc) => oc.columns(["account_id", "user_id"]).doNothing())
    .execute();
}

/**
 * Who at the firm opened an account's documents, and when: the trail's downloads and previews by
 * the firm's people on that account, newest first (docs/decisions.md, "Assigned accounts (issue 33)").
 */
export async function documentAccessOfAccount(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom("activity_events")
    .select(["occurred_at", "actor_id", "actor_label", "action", "target_id as document_id", sql<string | null>`detail->>'filename'`.as("filename")])
    .where("account_id", "=", accountId)
    .where("actor_role", "=", "admin")
    .where("action", "in", ["document.download", "document.preview"])
    .orderBy("occurred_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/**
 * Who at the firm reaches an account, and why: the owner and admins reach every account, staff
 * holding all_clients too, other staff only when assigned to it. Active people only: a deactivated
 * person reaches nothing. The owner first, then admins, then by name.
 */
export async function peopleReachingAccount(db: Db, accountId: string) {
  return db
    .selectFrom("users as u")
    .select([
      "u.id",
      "u.name",
      "u.email",
      "u.staff_role",
      "u.staff_rights",
      sql<boolean>`exists (select 1 from account_assignees aa where aa.account_id = ${accountId} and aa.user_id = u.id)`.as("assigned"),
    ])
    .where("u.is_admin", "=", true)
    .where("u.deactivated_at", "is", null)
    .where(
      sql<boolean>`(u.staff_role is distinct from 'staff' or 'all_clients' = any(u.staff_rights)
        or exists (select 1 from account_assignees aa where aa.account_id = ${accountId} and aa.user_id = u.id))`,
    )
    .orderBy(sql`case coalesce(u.staff_role, 'admin') when 'owner' then 0 when 'admin' then 1 else 2 end`)
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
}

/**
 * The accounts an invited staff member is to look after (docs/decisions.md, "Prepared for invited
 * people"), by invitation, narrowed to the accounts the asker reaches, as assignedAccountsOf is.
 */
export async function pendingAssignedAccountsOf(db: Db, scope: FirmScope, invitationIds: readonly string[]) {
  if (invitationIds.length === 0) return [];
  return db
    .selectFrom("invitation_assignments as ia")
    .innerJoin("accounts as a", "a.id", "ia.account_id")
    .select(["ia.invitation_id", "a.id", "a.name"])
    .where("ia.invitation_id", "in", invitationIds)
    .where(inFirmScope(scope, "ia.account_id"))
    .orderBy("a.name")
    .orderBy("a.id")
    .execute();
}

/** An account's invited staff members still to accept (an open staff invitation), by name. */
export async function listInvitedAssignees(db: Db, accountId: string) {
  return db
    .selectFrom("invitation_assignments as ia")
    .innerJoin("invitations as i", "i.id", "ia.invitation_id")
    .select(["i.id as invitation_id", "i.name", "i.email", "i.staff_role", "i.expires_at", "ia.assigned_at"])
    .where("ia.account_id", "=", accountId)
    .where("i.accepted_at", "is", null)
    .where("i.revoked_at", "is", null)
    .orderBy("i.name")
    .orderBy("i.id")
    .execute();
}

/** Which of these ids are staff invitations neither accepted nor revoked (what an account may be assigned to ahead). */
export async function openStaffInvitationIds(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("invitations")
    .select("id")
    .where("id", "in", ids)
    .where("staff_role", "is not", null)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .execute();
  return rows.map((r) => r.id);
}

/** Makes the account's invited assignees exactly `ids` (open staff invitations); answers who was added and who removed. */
export async function replaceInvitedAssignees(db: Db, accountId: string, ids: readonly string[]): Promise<{ added: string[]; removed: string[] }> {
  let removeQuery = db.deleteFrom("invitation_assignments").where("account_id", "=", accountId);
  if (ids.length > 0) removeQuery = removeQuery.where("invitation_id", "not in", ids);
  const removed = await removeQuery.returning("invitation_id").execute();
  const added =
    ids.length === 0
      ? []
      : await db
          .insertInto("invitation_assignments")
          .values(ids.map((invitation_id) => ({ account_id: accountId, invitation_id })))
          .onConflict((oc) => oc.columns(["invitation_id", "account_id"]).doNothing())
          .returning("invitation_id")
          .execute();
  return { added: added.map((r) => r.invitation_id), removed: removed.map((r) => r.invitation_id) };
}

/** The accepted staff invitation's accounts become the new person's assignments; answers the accounts. */
export async function assignFromInvitation(db: Db, invitationId: string, userId: string, now: Date): Promise<string[]> {
  const rows = await db.deleteFrom("invitation_assignments").where("invitation_id", "=", invitationId).returning("account_id").execute();
  if (rows.length === 0) return [];
  await db
    .insertInto("account_assignees")
    .values(rows.map((r) => ({ account_id: r.account_id, user_id: userId, assigned_at: now })))
    .onConflict((oc) => oc.columns(["account_id", "user_id"]).doNothing())
    .execute();
  return rows.map((r) => r.account_id);
}

/**
 * The firm's active people who may assign any client account to a colleague: the owner, admins,
 * and staff holding both manage_clients and all_clients; the owner first, then admins, by name.
 */
export async function assignersForFirm(db: Db) {
  return db
    .selectFrom("users as u")
    .select(["u.name", "u.staff_role"])
    .where("u.is_admin", "=", true)
    .where("u.deactivated_at", "is", null)
    .where(sql<boolean>`(u.staff_role is distinct from 'staff' or ('manage_clients' = any(u.staff_rights) and 'all_clients' = any(u.staff_rights)))`)
    .orderBy(sql`case coalesce(u.staff_role, 'admin') when 'owner' then 0 when 'admin' then 1 else 2 end`)
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
}
