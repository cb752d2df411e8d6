import { z } from "zod";
import { nameText } from "../shared-schemas.ts";
import { emailSchema, FILL_ALL_FIELDS, languageSchema, registerInput, restSignedInOutput, signedInOutput } from "../auth/schemas.ts";
import { householdRole } from "../accounts/schemas.ts";

const REGISTRATION_MODES = ["open", "invite_only"] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export const registrationOutput = z.object({ registration: z.enum(REGISTRATION_MODES) });
export const setRegistrationInput = z.object({
  registration: z.enum(REGISTRATION_MODES, { error: "registration must be open or invite_only" }),
});

export const createInvitationInput = z.object({
  name: nameText(FILL_ALL_FIELDS).min(1, FILL_ALL_FIELDS).max(100, "Name must be at most 100 characters"),
  email: emailSchema,
  /**
   * Invite the person to this existing account (its first person owns it, later ones are members);
   * without it the invitation makes an individual account of its own for the invitee.
   */
  account_id: z.uuid({ error: "account_id must be an account's id" }).optional(),
  /** The invitee's role in a household account: taxpayer, spouse or dependent (422 for another kind). */
  household_role: householdRole.optional(),
  /** The invitee's language: their invitation email speaks it, and they keep it on accepting (English when left out). */
  language: languageSchema.optional(),
});
export type CreateInvitationInput = z.infer<typeof createInvitationInput>;

export const listInvitationsInput = z.object({ limit: z.coerce.number().int().min(1).max(200).default(100) });

/** What the firm's list says of an invitation; revoked ones leave the list. */
const INVITATION_STATUSES = ["pending", "expired", "accepted", "revoked"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const invitationOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(INVITATION_STATUSES),
  created_at: z.date(),
  expires_at: z.date(),
  /** When its latest mail went out; null while it waits in the queue. */
  last_sent_at: z.date().nullable(),
  accepted_at: z.date().nullable(),
  /** The admin who invited (username, else email); null once that account is gone. */
  invited_by: z.string().nullable(),
  /**
   * The client account made for the invitee when invited, which the firm may already ask, share,
   * write and book for by `account_id` (null: an invitation from before accounts).
   */
  account_id: z.string().nullable(),
});
export type InvitationItem = z.infer<typeof invitationOutput>;

export const INVALID_INVITATION =
  "This invitation link is not valid. It may have been replaced by a newer one: check your email, or ask the firm to send it again.";
const tokenSchema = z.string({ error: INVALID_INVITATION }).trim().min(1, INVALID_INVITATION).max(200, INVALID_INVITATION);

export const invitationTokenInput = z.object({ token: tokenSchema });

/** The accept form's view of an invitation: whom it is for, and until when. */
export const invitationPeekOutput = z.object({
  name: z.string(),
  email: z.string(),
  expires_at: z.date(),
  /** An invitation to the firm's team: its acceptance enrols a second factor and opens the admin portal. */
  for_staff: z.boolean(),
  /**
   * An invitation to join an account that exists (an owner invited a member): its name, for "Join
   * <account name>", which a person already signed in accepts into their accounts list; else null.
   */
  account_name: z.string().nullable(),
});
export type InvitationPeek = z.infer<typeof invitationPeekOutput>;

/** Registration's fields and rules, but the address is the invitation's. */
export const acceptInvitationInput = registerInput.omit({ email: true }).extend({ token: tokenSchema });
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInput>;

/** Signed in; or, when the firm requires two-factor sign-in of every client, a challenge that enrols first. */
const enrolFirst = z.object({ two_factor_setup_required: z.literal(true), challenge: z.string() });
export const acceptInvitationOutput = z.union([signedInOutput, enrolFirst]);
/** As the REST path answers it: signed in with the session's token, or the challenge to enrol first. */
export const restAcceptInvitationOutput = z.union([restSignedInOutput, enrolFirst]);
