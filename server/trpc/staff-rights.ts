// The firm's roles and rights (docs/decisions.md, "Staff roles and rights (issue 33)"), in one
// small file: procedures.ts checks them, the staff domain's schemas validate them, and the admin
// portal (through staff/schemas.ts) shows only what the signed-in person may use.

export const STAFF_ROLES = ["owner", "admin", "staff"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_RIGHTS = [
  "all_clients",
  "manage_clients",
  "documents",
  "requests",
  "messages",
  "appointments",
  "site",
  "activity",
  "settings",
  "staff",
] as const;
export type StaffRight = (typeof STAFF_RIGHTS)[number];

/** What the firm's side knows of the person asking. */
export type StaffAccess = { role: StaffRole; rights: StaffRight[] };

/** Owners and admins may do everything (but transfer ownership: the owner's alone, staff/service.ts); staff what their rights name. */
export function mayUse(access: StaffAccess, right: StaffRight): boolean {
  return access.role !== "staff" || access.rights.includes(right);
}

/**
 * A client account's complete export holds everything the firm keeps of it (docs/safeguards.md,
 * "Export"): it needs the client record's own right and each right that shows a part of it
 * (documents; the conversation; requests, organizers and signatures; appointments).
 */
export const EXPORT_RIGHTS = ["manage_clients", "documents", "messages", "requests", "appointments"] as const satisfies readonly StaffRight[];

/** The 403's detail when a staff member lacks a right: one wording, naming the right. */
export function missingRightMessage(right: StaffRight): string {
  return `You need the ${right} right for this`;
}
