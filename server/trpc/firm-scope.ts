// Which client accounts a person of the firm reaches (docs/security.md, "Assigned accounts"), in one
// place: adminProcedure builds `ctx.firmScope` on every request, and every firm query about a
// client's rows takes it as a required argument and narrows itself with `inFirmScope`. Owners,
// admins and staff holding all_clients reach every account; other staff only the accounts they
// are assigned to (table account_assignees), and anything else answers 404 as if it did not exist.
// An action that touches several accounts at once (a person's deletion takes every account they
// are in, and the ones they were the last of; linking a person into an account changes who holds
// their other accounts' data) is checked for every account it touches, not for its entry point:
// `beyondReach` (docs/security.md, "Round 4").
import { TRPCError } from "@trpc/server";
import { type Expression, type SqlBool, sql } from "kysely";
import type { Db } from "../db/types.ts";
import type { StaffAccess } from "./staff-rights.ts";

export type FirmScope = { readonly all: true } | { readonly all: false; readonly staffId: string };

export function firmScopeOf(staff: StaffAccess, userId: string): FirmScope {
  return staff.role !== "staff" || staff.rights.includes("all_clients") ? { all: true } : { all: false, staffId: userId };
}

/**
 * A condition on an account id column (`"d.account_id"`, `"a.id"`): true for an account the scope
 * reaches. The column is always a literal of the calling query, never input.
 */
export function inFirmScope(scope: FirmScope, accountColumn: string): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`true`;
  return sql<SqlBool>`${sql.ref(accountColumn)} in (select aa.account_id from account_assignees aa where aa.user_id = ${scope.staffId})`;
}

/** A condition on a person's id column: true for a contact of an account the scope reaches. */
export function personInFirmScope(scope: FirmScope, userColumn: string): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`true`;
  return sql<SqlBool>`${sql.ref(userColumn)} in (
    select c.user_id from account_contacts c join account_assignees aa on aa.account_id = c.account_id where aa.user_id = ${scope.staffId})`;
}

/** What a firm action touches: accounts by id, and people (each with every account they are in). */
export type Touched = { readonly accounts?: readonly string[]; readonly people?: readonly string[] };

/**
 * What of `touched` the scope does not reach: the accounts named that it does not reach, and the
 * people named who are in at least one account it does not reach. Empty for the firm's all-seeing
 * people. Read inside the action's transaction, after its locks (a person's row, an account's), so
 * the answer holds until it commits.
 */
export async function beyondReach(db: Db, scope: FirmScope, touched: Touched): Promise<{ accounts: string[]; people: string[] }> {
  const accounts = [...new Set(touched.accounts ?? [])];
  const people = [...new Set(touched.people ?? [])];
  if (scope.all || (accounts.length === 0 && people.length === 0)) return { accounts: [], people: [] };
  const reached = (column: string) =>
    sql<SqlBool>`exists (select 1 from account_assignees aa where aa.account_id = ${sql.ref(column)} and aa.user_id = ${scope.staffId})`;
  const [outAccounts, outPeople] = await Promise.all([
    accounts.length === 0
      ? []
      : db
          .selectFrom("accounts as a")
          .select("a.id")
          .where("a.id", "in", accounts)
          .where((eb) => eb.not(reached("a.id")))
          .execute(),
    people.length === 0
      ? []
      : db
          .selectFrom("account_contacts as c")
          .select("c.user_id")
          .distinct()
          .where("c.user_id", "in", people)
          .where((eb) => eb.not(reached("c.account_id")))
          .execute(),
  ]);
  return { accounts: outAccounts.map((r) => r.id), people: outPeople.map((r) => r.user_id) };
}

/** Whether the scope reaches everything the action touches. */
export async function reachesAll(db: Db, scope: FirmScope, touched: Touched): Promise<boolean> {
  const out = await beyondReach(db, scope, touched);
  return out.accounts.length === 0 && out.people.length === 0;
}

/** Refuses (403, saying why) an action touching anything beyond the scope's reach. */
export async function assertReachesAll(db: Db, scope: FirmScope, touched: Touched, why: string): Promise<void> {
  if (!(await reachesAll(db, scope, touched))) throw new TRPCError({ code: "FORBIDDEN", message: why });
}
