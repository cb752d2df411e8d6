// Which client accounts a person of the firm reaches (docs/security.md, "Assigned accounts"), in one
// place: adminProcedure builds `ctx.firmScope` on every request, and every firm query about a
// client's rows takes it as a required argument and narrows itself with `inFirmScope`. Owners,
// admins and staff holding all_clients reach every account; other staff only the accounts they
// are assigned to (table account_assignees), and anything else answers 404 as if it did not exist.
import { type Expression, type SqlBool, sql } from "kysely";
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
