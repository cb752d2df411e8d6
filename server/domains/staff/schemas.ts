import { z } from "zod";
import { STAFF_RIGHTS, STAFF_ROLES } from "../../trpc/staff-rights.ts";
import { emailSchema, FILL_ALL_FIELDS } from "../auth/schemas.ts";
import { idSchema, nameText } from "../shared-schemas.ts";

export { EXPORT_RIGHTS, STAFF_RIGHTS, STAFF_ROLES, type StaffRight, type StaffRole } from "../../trpc/staff-rights.ts";

const rightsSchema = z
  .array(z.enum(STAFF_RIGHTS, { error: `rights must be among ${STAFF_RIGHTS.join(", ")}` }), { error: "rights must be a list" })
  .max(STAFF_RIGHTS.length, "rights must be among the known rights")
  .transform((rights) => [...new Set(rights)]);

/** The owner is never invited: ownership moves when the owner gives another person the role `owner`. */
const grantedRole = z.enum(["admin", "staff"], { error: "role must be admin or staff" });

export const createStaffInput = z.object({
  name: nameText(FILL_ALL_FIELDS).min(1, FILL_ALL_FIELDS).max(100, "Name must be at most 100 characters"),
  email: emailSchema,
  role: grantedRole,
  rights: rightsSchema.default([]),
});
export type CreateStaffInput = z.infer<typeof createStaffInput>;

export const updateStaffInput = z.object({
  id: idSchema,
  /** `owner`: the owner hands ownership to this person and becomes an admin (the owner alone). */
  role: z.enum(STAFF_ROLES, { error: "role must be owner, admin or staff" }).optional(),
  rights: rightsSchema.optional(),
  active: z.boolean({ error: "active must be true or false" }).optional(),
});
export type UpdateStaffInput = z.infer<typeof updateStaffInput>;

/** One of the firm's people as the Team tab shows them. */
export const staffMemberOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  role: z.enum(STAFF_ROLES),
  /** What a staff member may do; owners and admins may do everything, whatever is stored. */
  rights: z.array(z.enum(STAFF_RIGHTS)),
  active: z.boolean(),
  created_at: z.date(),
  /** The client accounts assigned to them, by name (only those the asker reaches). */
  assigned_accounts: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type StaffMember = z.infer<typeof staffMemberOutput>;

/** A staff invitation on its way: its link is mailed, and accepting it makes the person. */
export const staffInvitationOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: grantedRole,
  rights: z.array(z.enum(STAFF_RIGHTS)),
  expires_at: z.date(),
  /** Pending until it expires; an expired one is replaced by inviting the address again. */
  status: z.enum(["pending", "expired"]),
  /** The client accounts they will look after once they accept (only those the asker reaches). */
  assigned_accounts: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type StaffInvitation = z.infer<typeof staffInvitationOutput>;

/** The signed-in person of the admin portal: who they are, and what the portal may offer them. */
export const adminMeOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  auth_provider: z.string(),
  created_at: z.date(),
  is_admin: z.boolean(),
  email_verified: z.boolean(),
  role: z.enum(STAFF_ROLES),
  /** Every right the person holds: all of them for the owner and admins. */
  rights: z.array(z.enum(STAFF_RIGHTS)),
});
export type AdminMe = z.infer<typeof adminMeOutput>;

/** Whose assignees: the account (`account_id`), or the account a client person's id means (the client page's). */
export const accountAssigneesInput = z
  .object({ account_id: idSchema.optional(), user_id: idSchema.optional() })
  .refine((v) => v.account_id !== undefined || v.user_id !== undefined, { message: "Give account_id or user_id", path: ["account_id"] });

/** PUT /api/admin/accounts/:id/assignees: the account's assignees, replaced as a whole. */
export const setAccountAssigneesInput = z.object({
  id: idSchema,
  user_ids: z
    .array(z.uuid("user_ids must name staff members by their ids"), { error: "user_ids must be a list of staff user ids" })
    .max(100, { error: "At most 100 assignees" })
    .transform((ids) => [...new Set(ids)]),
  /**
   * Staff invited but not signed up yet, by their open invitation's id: the account is theirs to look
   * after once they accept. Absent: the invited assignees stay as they are.
   */
  invitation_ids: z
    .array(z.uuid("invitation_ids must name staff invitations by their ids"), { error: "invitation_ids must be a list of staff invitation ids" })
    .max(100, { error: "At most 100 assignees" })
    .transform((ids) => [...new Set(ids)])
    .optional(),
});
export type SetAccountAssigneesInput = z.infer<typeof setAccountAssigneesInput>;

export const accountAssigneeOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  active: z.boolean(),
  assigned_at: z.date(),
});
/** An invited staff member the account is to be assigned to when they accept (their invitation is open). */
export const invitedAssigneeOutput = z.object({
  invitation_id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(["admin", "staff"]),
  /** When the invitation's link stops working (the firm resends it for another 7 days). */
  expires_at: z.date(),
  assigned_at: z.date(),
});
export const accountAssigneesOutput = z.object({
  account_id: z.string(),
  assignees: z.array(accountAssigneeOutput),
  invited: z.array(invitedAssigneeOutput),
});
export type AccountAssignees = z.infer<typeof accountAssigneesOutput>;

/**
 * Whether the asker reaches a client account (or a client person, `user_id`), for the admin pages to
 * say why one does not open (docs/security.md, "Assigned accounts"): `reached`; `not_assigned`, a
 * client of the firm outside a staff member's assigned accounts, with `assigners`, who at the firm
 * may assign it to them; `not_found`, no client has this id (always this, never `not_assigned`, for
 * those who reach every account). Nothing of the account itself is said.
 */
export const accountReachOutput = z.object({
  reach: z.enum(["reached", "not_assigned", "not_found"]),
  assigners: z.array(z.object({ name: z.string(), role: z.enum(STAFF_ROLES) })),
});
export type AccountReach = z.infer<typeof accountReachOutput>;

export const accessReportInput = z.object({ id: idSchema, limit: z.coerce.number().int().min(1).max(1000).default(200) });
/** Why a person of the firm reaches an account: their role, the all_clients right, or an assignment. */
export const ACCESS_REASONS = ["owner", "admin", "all_clients", "assigned"] as const;
export type AccessReason = (typeof ACCESS_REASONS)[number];

export const accessReportOutput = z.object({
  account_id: z.string(),
  /** Who at the firm can see this account now, and why (active people only). */
  people: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: z.enum(STAFF_ROLES),
      /** What they may do with it: every right for the owner and admins. */
      rights: z.array(z.enum(STAFF_RIGHTS)),
      reason: z.enum(ACCESS_REASONS),
      /** Assigned to the account, whatever else lets them see it. */
      assigned: z.boolean(),
    }),
  ),
  items: z.array(
    z.object({
      occurred_at: z.date(),
      /** The person of the firm who opened it (null once they are deleted; their label stays). */
      actor_id: z.string().nullable(),
      actor_label: z.string(),
      action: z.enum(["document.download", "document.preview"]),
      document_id: z.string().nullable(),
      filename: z.string().nullable(),
    }),
  ),
});
export type AccessReport = z.infer<typeof accessReportOutput>;
