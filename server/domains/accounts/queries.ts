import { sql } from "kysely";
import type { Db, HouseholdRole } from "../../db/types.ts";
import { type FirmScope, inFirmScope, personInFirmScope } from "../../trpc/firm-scope.ts";
import type { CurrentAccount } from "./schemas.ts";

/** The accounts a person may open (portal access on), owned ones first, then the oldest link. */
export async function listReachableAccounts(db: Db, userId: string): Promise<CurrentAccount[]> {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("accounts as a", "a.id", "c.account_id")
    .select(["a.id", "a.name", "a.kind", "c.role"])
    .where("c.user_id", "=", userId)
    .where("c.portal_access", "=", true)
    .orderBy(sql`c.role = 'owner'`, "desc")
    .orderBy("c.created_at")
    .orderBy("a.id")
    .execute();
}

/** One account if the person may open it (a contact with portal access), else undefined. */
export async function findReachableAccount(db: Db, userId: string, accountId: string): Promise<CurrentAccount | undefined> {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("accounts as a", "a.id", "c.account_id")
    .select(["a.id", "a.name", "a.kind", "c.role"])
    .where("c.user_id", "=", userId)
    .where("c.account_id", "=", accountId)
    .where("c.portal_access", "=", true)
    .executeTakeFirst();
}

/**
 * The session's current account, read afresh on every request (docs/security.md, "Client
 * accounts"): the one the session chose while the person still reaches it, else the first one
 * they reach. Undefined when they reach none.
 */
export async function resolveSessionAccount(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<(CurrentAccount & { saved: string | null }) | undefined> {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("accounts as a", "a.id", "c.account_id")
    .leftJoin("sessions as s", (join) => join.on("s.id", "=", sessionId))
    .select(["a.id", "a.name", "a.kind", "c.role", "s.account_id as saved"])
    .where("c.user_id", "=", userId)
    .where("c.portal_access", "=", true)
    .orderBy(sql`c.account_id = s.account_id`, (ob) => ob.desc().nullsLast())
    .orderBy(sql`c.role = 'owner'`, "desc")
    .orderBy("c.created_at")
    .orderBy("a.id")
    .limit(1)
    .executeTakeFirst();
}

export async function setSessionAccount(db: Db, sessionId: string, accountId: string): Promise<void> {
  await db.updateTable("sessions").set({ account_id: accountId }).where("id", "=", sessionId).execute();
}

/** A new account with its first contact as owner (registration, the firm's invitation). */
export async function createAccountWithOwner(
  db: Db,
  account: { name: string; kind: CurrentAccount["kind"] },
  ownerId: string | null,
): Promise<string> {
  const { id } = await db.insertInto("accounts").values(account).returning("id").executeTakeFirstOrThrow();
  if (ownerId) await addContact(db, id, ownerId, { role: "owner", notify: true });
  return id;
}

export async function addContact(
  db: Db,
  accountId: string,
  userId: string,
  opts: { role: "owner" | "member"; household_role?: HouseholdRole | null; notify: boolean },
): Promise<void> {
  await db
    .insertInto("account_contacts")
    .values({ account_id: accountId, user_id: userId, role: opts.role, household_role: opts.household_role ?? null, notify: opts.notify })
    .onConflict((oc) => oc.columns(["account_id", "user_id"]).doNothing())
    .execute();
}

/**
 * The account a firm path means by a person's id (docs/decisions.md, "Client accounts (issue
 * 32)"): their only account, or the one account they own. "none" (an admin's id too) and
 * "several" are the caller's 404 and 409.
 */
export async function accountForPerson(db: Db, scope: FirmScope, userId: string): Promise<{ id: string } | "none" | "several"> {
  // The firm's paths name clients only: an admin's id names no account, as it named no client before.
  const links = await db
    .selectFrom("account_contacts")
    .innerJoin("users", "users.id", "account_contacts.user_id")
    .select(["account_contacts.account_id", "account_contacts.role"])
    .where("account_contacts.user_id", "=", userId)
    .where("users.is_admin", "=", false)
    // Accounts outside the asker's reach do not exist for them (firm-scope.ts).
    .where(inFirmScope(scope, "account_contacts.account_id"))
    .execute();
  if (links.length === 0) return "none";
  if (links.length === 1) return { id: links[0]!.account_id };
  const owned = links.filter((l) => l.role === "owner");
  return owned.length === 1 ? { id: owned[0]!.account_id } : "several";
}

/** Whether a person exists for the asker: anyone for the firm's all-seeing people, else a contact of an assigned account. */
export async function personExistsForFirm(db: Db, scope: FirmScope, userId: string): Promise<boolean> {
  const found = await db.selectFrom("users").select("id").where("id", "=", userId).where(personInFirmScope(scope, "users.id")).executeTakeFirst();
  return found !== undefined;
}

/** Whether an account exists for the asker (a firm path naming it by account_id). */
export async function accountExistsForFirm(db: Db, scope: FirmScope, accountId: string): Promise<boolean> {
  const found = await db.selectFrom("accounts").select("id").where("id", "=", accountId).where(inFirmScope(scope, "accounts.id")).executeTakeFirst();
  return found !== undefined;
}

/** The people an account's emails go to: every contact with notify, owners first. */
/** Whether a mail to the account reaches anyone: one of its people with notify on (the recipients of notifyRecipientsForFirm). */
export async function accountHasMailRecipients(db: Db, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom("account_contacts")
    .select("user_id")
    .where("account_id", "=", accountId)
    .where("notify", "=", true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function notifyRecipientsForFirm(
  db: Db,
  accountId: string,
): Promise<{ id: string; name: string; email: string; email_verified_at: Date | null }[]> {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["u.id", "u.name", "u.email", "u.email_verified_at"])
    .where("c.account_id", "=", accountId)
    .where("c.notify", "=", true)
    .orderBy(sql`c.role = 'owner'`, "desc")
    .orderBy("c.created_at")
    .execute();
}

/**
 * Deleting a person: the accounts where they are the last contact, which go with them (and their
 * stored files), while accounts with another contact stay.
 */
export async function accountsLeftWithoutContactsForFirm(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("account_contacts as c")
    .select("c.account_id")
    .where("c.user_id", "=", userId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("account_contacts as other")
            .select("other.user_id")
            .whereRef("other.account_id", "=", "c.account_id")
            .where("other.user_id", "<>", userId),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.account_id);
}

/**
 * The accounts a login is in, locked in id order (as a claim of it changes them: docs/security.md,
 * Round 4), each with whether anyone else is in it or invited to it.
 */
export async function lockAccountsOfLogin(db: Db, userId: string): Promise<{ id: string; name: string; shared: boolean }[]> {
  const links = await db.selectFrom("account_contacts").select("account_id").where("user_id", "=", userId).execute();
  if (links.length === 0) return [];
  return db
    .selectFrom("accounts as a")
    .select(["a.id", "a.name"])
    .select((eb) =>
      eb
        .or([
          eb.exists(
            eb.selectFrom("account_contacts as o").select("o.user_id").whereRef("o.account_id", "=", "a.id").where("o.user_id", "<>", userId),
          ),
          eb.exists(
            eb
              .selectFrom("invitations as i")
              .select("i.id")
              .whereRef("i.account_id", "=", "a.id")
              .where("i.accepted_at", "is", null)
              .where("i.revoked_at", "is", null),
          ),
        ])
        .$castTo<boolean>()
        .as("shared"),
    )
    .where(
      "a.id",
      "in",
      links.map((l) => l.account_id),
    )
    .orderBy("a.id")
    .forUpdate()
    .execute();
}

/** The login leaves these accounts, which stay (with their other people and invitations) marked for the firm's review. */
export async function leaveAccountsForReview(db: Db, userId: string, accountIds: readonly string[], now: Date): Promise<void> {
  if (accountIds.length === 0) return;
  await db.deleteFrom("account_contacts").where("user_id", "=", userId).where("account_id", "in", accountIds).execute();
  await db.updateTable("accounts").set({ claim_review_at: now, claim_review_user_id: userId }).where("id", "in", accountIds).execute();
}

export async function deleteAccountsForFirm(db: Db, accountIds: readonly string[]): Promise<void> {
  if (accountIds.length > 0) await db.deleteFrom("accounts").where("id", "in", accountIds).execute();
}

/** An account's id and name, as the trail names it. */
export async function findAccountName(db: Db, accountId: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom("accounts").select(["id", "name"]).where("id", "=", accountId).executeTakeFirst();
}
