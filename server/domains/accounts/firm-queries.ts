// Every statement of the firm's side of accounts, each named for the firm (style.md, habit 3); the
// ones that find an account by id or list them take the asker's scope (trpc/firm-scope.ts), so a
// staff member without all_clients reaches only the accounts assigned to them.
import { sql } from "kysely";
import { containsPattern, type PageWindow } from "../../db/search.ts";
import type { Db, HouseholdRole } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { AccountContact } from "./firm-schemas.ts";
import type { CurrentAccount } from "./schemas.ts";

type Kind = CurrentAccount["kind"];
type Role = CurrentAccount["role"];

/** An account's row as the firm's pages show it; the claim review's two columns say whether a claimed login left it (docs/security.md, Round 4). */
const accountColumns = ["id", "name", "kind", "created_at", "claim_review_at", "claim_review_user_id"] as const;

export async function insertAccountForFirm(db: Db, account: { name: string; kind: Kind }) {
  return db.insertInto("accounts").values(account).returning(accountColumns).executeTakeFirstOrThrow();
}

/** The account, locked: every change of its people takes this lock first, so the one-owner rule sees a settled list. */
export async function lockAccountForFirm(db: Db, scope: FirmScope, id: string) {
  return db
    .selectFrom("accounts")
    .select(accountColumns)
    .where("id", "=", id)
    .where(inFirmScope(scope, "accounts.id"))
    .forUpdate()
    .executeTakeFirst();
}

export async function findAccountForFirm(db: Db, scope: FirmScope, id: string) {
  return db.selectFrom("accounts").select(accountColumns).where("id", "=", id).where(inFirmScope(scope, "accounts.id")).executeTakeFirst();
}

export async function updateAccountForFirm(
  db: Db,
  id: string,
  changes: { name?: string; kind?: Kind; claim_review_at?: null; claim_review_user_id?: null },
) {
  return db.updateTable("accounts").set(changes).where("id", "=", id).returning(accountColumns).executeTakeFirst();
}

/** Newest first; `q` matches the account's name, or a person's (joined or invited) name or email. */
export async function accountPageForFirm(db: Db, scope: FirmScope, page: PageWindow) {
  let query = db.selectFrom("accounts as a").where(inFirmScope(scope, "a.id"));
  if (page.q) {
    const pattern = containsPattern(page.q);
    query = query.where((eb) =>
      eb.or([
        eb("a.name", "ilike", pattern),
        eb.exists(
          eb
            .selectFrom("account_contacts as c")
            .innerJoin("users as u", "u.id", "c.user_id")
            .select("c.user_id")
            .whereRef("c.account_id", "=", "a.id")
            .where((w) => w.or([w("u.name", "ilike", pattern), w("u.email", "ilike", pattern)])),
        ),
        eb.exists(
          eb
            .selectFrom("invitations as i")
            .select("i.id")
            .whereRef("i.account_id", "=", "a.id")
            .where("i.accepted_at", "is", null)
            .where("i.revoked_at", "is", null)
            .where((w) => w.or([w("i.name", "ilike", pattern), w("i.email", "ilike", pattern)])),
        ),
      ]),
    );
  }
  const [items, count] = await Promise.all([
    query
      .select(["a.id", "a.name", "a.kind", "a.created_at", "a.claim_review_at", "a.claim_review_user_id"])
      .orderBy("a.created_at", "desc")
      .orderBy("a.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

/**
 * The people of these accounts: contacts (owners first, then by when they joined), then the people
 * invited who have not joined yet (an invitation neither accepted nor revoked).
 */
export async function contactsForFirm(db: Db, accountIds: string[]): Promise<(AccountContact & { account_id: string })[]> {
  if (accountIds.length === 0) return [];
  const [joined, invited] = await Promise.all([
    db
      .selectFrom("account_contacts as c")
      .innerJoin("users as u", "u.id", "c.user_id")
      .select(["c.account_id", "c.user_id", "u.name", "u.email", "c.role", "c.household_role", "c.portal_access", "c.notify", "u.email_verified_at"])
      .where("c.account_id", "in", accountIds)
      .orderBy(sql`c.role = 'owner'`, "desc")
      .orderBy("c.created_at")
      .orderBy("c.user_id")
      .execute(),
    db
      .selectFrom("invitations as i")
      .select(["i.account_id", "i.id", "i.name", "i.email", "i.role", "i.household_role", "i.notify"])
      .where("i.account_id", "in", accountIds)
      .where("i.accepted_at", "is", null)
      .where("i.revoked_at", "is", null)
      .orderBy("i.created_at")
      .orderBy("i.id")
      .execute(),
  ]);
  return [
    ...joined.map(({ email_verified_at, ...c }) => ({ ...c, invitation_id: null, email_verified: email_verified_at !== null })),
    ...invited.map((i) => ({
      account_id: i.account_id!,
      user_id: null,
      invitation_id: i.id,
      name: i.name,
      email: i.email,
      role: i.role,
      household_role: i.household_role,
      portal_access: true,
      notify: i.notify,
      email_verified: false,
    })),
  ];
}

export async function findContactForFirm(db: Db, accountId: string, userId: string) {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["c.user_id", "c.role", "c.household_role", "c.portal_access", "c.notify", "u.name", "u.email"])
    .where("c.account_id", "=", accountId)
    .where("c.user_id", "=", userId)
    .executeTakeFirst();
}

export async function updateContactForFirm(
  db: Db,
  accountId: string,
  userId: string,
  changes: { role?: Role; household_role?: HouseholdRole | null; portal_access?: boolean; notify?: boolean },
) {
  await db.updateTable("account_contacts").set(changes).where("account_id", "=", accountId).where("user_id", "=", userId).execute();
}

export async function deleteContactForFirm(db: Db, accountId: string, userId: string): Promise<void> {
  await db.deleteFrom("account_contacts").where("account_id", "=", accountId).where("user_id", "=", userId).execute();
}

/**
 * How many people the account has, and how many own it (the one-owner rule): an owner still invited
 * counts, since accepting makes them the owner, and an account made with its owner invited lets the
 * firm manage the people who joined first.
 */
export async function contactCountsForFirm(db: Db, accountId: string): Promise<{ people: number; owners: number }> {
  const [joined, invited] = await Promise.all([
    db
      .selectFrom("account_contacts")
      .select((eb) => [eb.fn.countAll<string>().as("people"), eb.fn.count<string>(sql`case when role = 'owner' then 1 end`).as("owners")])
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("invitations")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("account_id", "=", accountId)
      .where("role", "=", "owner")
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow(),
  ]);
  return { people: Number(joined.people), owners: Number(joined.owners) + Number(invited.n) };
}

/** Invitations still open for the account (pending or expired): people the account is waiting for. */
export async function openInvitationCountForFirm(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom("invitations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("account_id", "=", accountId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The addresses of the logins that claims took out of accounts, by id (the firm's review notice names them). */
export async function emailsOfUsersForFirm(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** The users with these addresses (any case), as adding a person needs to know them. */
export async function usersByEmailForFirm(db: Db, emails: string[]) {
  if (emails.length === 0) return [];
  return db
    .selectFrom("users")
    .select(["id", "name", "email", "is_admin", "email_verified_at"])
    .where(
      sql<string>`lower(email)`,
      "in",
      emails.map((e) => e.toLowerCase()),
    )
    .execute();
}

/** The open invitations (neither accepted nor revoked) to these addresses, locked. */
export async function openInvitationsByEmailForFirm(db: Db, emails: string[]) {
  if (emails.length === 0) return [];
  return db
    .selectFrom("invitations")
    .select(["id", "email", "account_id", "expires_at", "staff_role"])
    .where(
      sql<string>`lower(email)`,
      "in",
      emails.map((e) => e.toLowerCase()),
    )
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .forUpdate()
    .execute();
}

export async function revokeInvitationForFirm(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("invitations").set({ revoked_at: now }).where("id", "=", id).execute();
}

export async function insertContactInvitationForFirm(
  db: Db,
  invitation: {
    account_id: string;
    name: string;
    email: string;
    role: Role;
    household_role: HouseholdRole | null;
    notify: boolean;
    created_by: string;
    created_at: Date;
    expires_at: Date;
  },
) {
  return db.insertInto("invitations").values(invitation).returning(["id", "expires_at"]).executeTakeFirstOrThrow();
}

export async function insertContactForFirm(
  db: Db,
  contact: { account_id: string; user_id: string; role: Role; household_role: HouseholdRole | null; notify: boolean },
): Promise<void> {
  await db.insertInto("account_contacts").values(contact).execute();
}

/** What the mail telling a person they were added names: the account and the person. */
export async function contactForMailForFirm(db: Db, accountId: string, userId: string) {
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .innerJoin("accounts as a", "a.id", "c.account_id")
    .select(["u.name", "u.email", "a.name as account_name"])
    .where("c.account_id", "=", accountId)
    .where("c.user_id", "=", userId)
    .executeTakeFirst();
}

/**
 * Whether `id` is a client account's (the firm's paths read an id as an account's before a
 * person's). An account sharing its id with a member of the firm is not: the firm's paths name
 * clients only, and an admin's id names no client, as before accounts.
 */
export async function accountIdExists(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom("accounts as a")
    .select("a.id")
    .where("a.id", "=", id)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("users as u").select("u.id").where("u.id", "=", id).where("u.is_admin", "=", true))))
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes the household roles off an account that is no longer a household: its people and open invitations alike. */
export async function clearHouseholdRolesForFirm(db: Db, accountId: string): Promise<void> {
  await db
    .updateTable("account_contacts")
    .set({ household_role: null })
    .where("account_id", "=", accountId)
    .where("household_role", "is not", null)
    .execute();
  await db
    .updateTable("invitations")
    .set({ household_role: null })
    .where("account_id", "=", accountId)
    .where("household_role", "is not", null)
    .execute();
}
