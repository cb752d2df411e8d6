import { sql } from "kysely";
import type { Db, HouseholdRole } from "../../db/types.ts";

/** Sets a contact's household role; false when the person is not one of the account's contacts. */
export async function setContactHouseholdRole(db: Db, accountId: string, userId: string, role: HouseholdRole | null): Promise<boolean> {
  const row = await db
    .updateTable("account_contacts")
    .set({ household_role: role })
    .where("account_id", "=", accountId)
    .where("user_id", "=", userId)
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}

/** An account's people who joined (with portal access or not), owners first, then by when they joined. */
export async function listAccountContacts(db: Db, accountId: string) {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["u.id as user_id", "u.name", "u.username", "u.email", "c.role", "c.household_role", "c.created_at"])
    .where("c.account_id", "=", accountId)
    .orderBy(sql`c.role = 'owner'`, "desc")
    .orderBy("c.created_at")
    .orderBy("u.id")
    .execute();
}

/** The account's invitations still waiting for their person (not accepted, revoked or expired). */
export async function listPendingAccountInvitations(db: Db, accountId: string, now: Date) {
  return db
    .selectFrom("invitations")
    .select(["id", "name", "email", "role", "household_role", "created_at"])
    .where("account_id", "=", accountId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .where("staff_role", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Whether a person with this address (any case) is already one of the account's contacts. */
export async function emailIsAccountContact(db: Db, accountId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("account_contacts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select("u.id")
    .where("c.account_id", "=", accountId)
    .where(sql<string>`lower(u.email)`, "=", email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** An owner's invitation of a member to their account; its link is made when the mail is sent. */
export async function insertAccountInvitation(
  db: Db,
  invitation: {
    account_id: string;
    name: string;
    email: string;
    household_role: HouseholdRole | null;
    created_by: string;
    created_at: Date;
    expires_at: Date;
  },
) {
  return db
    .insertInto("invitations")
    .values({ ...invitation, role: "member", notify: true })
    .returning(["id", "name", "email", "role", "household_role", "created_at", "expires_at"])
    .executeTakeFirstOrThrow();
}

/** A contact of the account, locked while it is removed. */
export async function findContactForUpdate(db: Db, accountId: string, userId: string) {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["c.user_id", "c.role", "u.name", "u.username", "u.email"])
    .where("c.account_id", "=", accountId)
    .where("c.user_id", "=", userId)
    .forUpdate("c")
    .executeTakeFirst();
}

/** How many owners the account has, the rows locked so two owners cannot remove each other at once. */
export async function countOwnersForUpdate(db: Db, accountId: string): Promise<number> {
  const rows = await db
    .selectFrom("account_contacts")
    .select("user_id")
    .where("account_id", "=", accountId)
    .where("role", "=", "owner")
    .forUpdate()
    .execute();
  return rows.length;
}

export async function deleteContact(db: Db, accountId: string, userId: string): Promise<void> {
  await db.deleteFrom("account_contacts").where("account_id", "=", accountId).where("user_id", "=", userId).execute();
}

/** What the invitation mail needs: the invitation, and who invited them by their address and whether they proved it. */
export async function findAccountInvitationForMail(db: Db, invitationId: string) {
  return db
    .selectFrom("invitations as i")
    .leftJoin("users as u", "u.id", "i.created_by")
    .select([
      "i.id",
      "i.email",
      "i.expires_at",
      "i.accepted_at",
      "i.revoked_at",
      "u.email as inviter_email",
      "u.email_verified_at as inviter_verified_at",
      "u.is_admin as inviter_is_firm",
    ])
    .where("i.id", "=", invitationId)
    .executeTakeFirst();
}

/**
 * The account an invitation to join names, for the link's page ("Join <account name>"): an owner's
 * invitation of a member, or the firm's invitation of someone who already uses the portal to an
 * account that was there before it (docs/security.md, Round 4).
 */
export async function findAccountNameOfInvitation(db: Db, invitationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("invitations as i")
    .innerJoin("accounts as a", "a.id", "i.account_id")
    .select("a.name")
    .where("i.id", "=", invitationId)
    .where("i.staff_role", "is", null)
    .where((eb) =>
      eb.or([
        eb("i.role", "=", "member"),
        eb.and([
          eb("i.made_account", "=", false),
          eb.exists(
            eb
              .selectFrom("users as u")
              .select("u.id")
              .where(sql<string>`lower(u.email)`, "=", sql<string>`lower(i.email)`)
              .where("u.email_verified_at", "is not", null),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
  return row?.name;
}
