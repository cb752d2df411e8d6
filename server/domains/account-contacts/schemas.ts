// An account's people as its contacts see them (docs/decisions.md, "An account's people"):
// importable by the web client (zod only).
import { z } from "zod";
import { createInvitationInput } from "../invitations/schemas.ts";
import { CONTACT_ROLES, householdRole } from "../accounts/schemas.ts";
import { idSchema } from "../shared-schemas.ts";

/** An owner's invitation of another person: a name and an email, as the firm's invitation takes. */
export const inviteContactInput = createInvitationInput;
export type InviteContactInput = z.infer<typeof inviteContactInput>;

export const removeContactInput = z.object({ user_id: idSchema });

/** PATCH /api/account/contacts/:userId: an owner changes a household person's role (null: none said). */
export const updateContactRoleBody = z.object({ household_role: householdRole });
export const updateContactRoleInput = updateContactRoleBody.extend({ user_id: idSchema });

/** One of the account's people: joined (a user) or invited (no user yet: user_id null). */
export const contactOutput = z.object({
  user_id: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  role: z.enum(CONTACT_ROLES),
  /** Taxpayer, spouse or dependent in a household; null elsewhere or not said yet. */
  household_role: householdRole,
  status: z.enum(["joined", "invited"]),
  /** When they joined, or when they were invited. */
  since: z.date(),
});
export type ContactItem = z.infer<typeof contactOutput>;

export const joinAccountInput = z.object({
  token: z.string({ error: "token is required" }).trim().min(1, "token is required").max(200, "token is too long"),
});
