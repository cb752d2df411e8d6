// What the firm's side knows of a signed-in admin user: their role and rights, read on every admin
// request (as the session is), so a change of rights holds from the next request on every instance.
import type { Db } from "../db/types.ts";
import { STAFF_RIGHTS, type StaffAccess, type StaffRight } from "../trpc/staff-rights.ts";

export async function findStaffAccess(db: Db, userId: string): Promise<StaffAccess | null> {
  const row = await db
    .selectFrom("users")
    .select(["is_admin", "staff_role", "staff_rights", "deactivated_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return row ? staffAccessOf(row) : null;
}

/**
 * The role and rights a user row gives, or null for a client or a deactivated person. The session
 * lookup reads these columns with the session (auth/session.ts), so an admin request costs no
 * second query.
 */
export function staffAccessOf(row: {
  is_admin: boolean;
  staff_role: StaffAccess["role"] | null;
  staff_rights: string[];
  deactivated_at: Date | null;
}): StaffAccess | null {
  if (!row.is_admin || row.deactivated_at) return null;
  // An admin user made without a role (a row written before roles, or by hand) is the specification's admin.
  const role = row.staff_role ?? "admin";
  const rights = row.staff_rights.filter((r): r is StaffRight => (STAFF_RIGHTS as readonly string[]).includes(r));
  return { role, rights };
}
