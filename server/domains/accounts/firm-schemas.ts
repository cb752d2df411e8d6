// The firm's side of client accounts (docs/decisions.md, "Client accounts (issue 32)"): the
// Clients tab's accounts, their people, and the CSV import. Importable by the web client (zod only).
import { z } from "zod";
import { emailSchema, FILL_ALL_FIELDS } from "../auth/schemas.ts";
import { listPageInput } from "../admin/schemas.ts";
import { idSchema, nameText } from "../shared-schemas.ts";
import { ACCOUNT_KINDS, CONTACT_ROLES, householdRole } from "./schemas.ts";

const KIND_ERROR = "kind must be individual, household or business";
const ROLE_ERROR = "role must be owner or member";

export const accountName = nameText(FILL_ALL_FIELDS).min(1, FILL_ALL_FIELDS).max(200, "Account name must be at most 200 characters");
export const personName = nameText(FILL_ALL_FIELDS).min(1, FILL_ALL_FIELDS).max(100, "Name must be at most 100 characters");
export const kind = z.enum(ACCOUNT_KINDS, { error: KIND_ERROR });
const role = z.enum(CONTACT_ROLES, { error: ROLE_ERROR });

export const createAccountInput = z.object({ name: accountName, kind });
export const accountIdInput = z.object({ id: idSchema });
export const listAccountsInput = listPageInput;

/** The fields PATCH sends; the path gives the id. `claim_reviewed`: the firm has reviewed what a claimed login left (docs/security.md, Round 4). */
export const updateAccountBody = z.object({
  name: accountName.optional(),
  kind: kind.optional(),
  claim_reviewed: z.literal(true, { error: "claim_reviewed must be true" }).optional(),
});
export const updateAccountInput = updateAccountBody
  .extend({ id: idSchema })
  .refine((v) => v.name !== undefined || v.kind !== undefined || v.claim_reviewed !== undefined, {
    message: "Send name, kind or claim_reviewed to change",
  });

export const addContactInput = z.object({
  id: idSchema,
  name: personName,
  email: emailSchema,
  /** Absent: owner for an account without people yet, member otherwise. */
  role: role.optional(),
  /** A household's person: taxpayer, spouse or dependent (422 for another kind of account). */
  household_role: householdRole.optional(),
  notify: z.boolean({ error: "notify must be true or false" }).default(true),
});
export type AddContactInput = z.infer<typeof addContactInput>;

export const updateContactBody = z.object({
  role: role.optional(),
  household_role: householdRole.optional(),
  portal_access: z.boolean({ error: "portal_access must be true or false" }).optional(),
  notify: z.boolean({ error: "notify must be true or false" }).optional(),
});
export const updateContactInput = updateContactBody
  .extend({ id: idSchema, userId: idSchema })
  .refine((v) => v.role !== undefined || v.household_role !== undefined || v.portal_access !== undefined || v.notify !== undefined, {
    message: "Send role, household_role, portal_access or notify to change",
  });
export type UpdateContactInput = z.infer<typeof updateContactInput>;

export const contactIdInput = z.object({ id: idSchema, userId: idSchema });

/** A person of an account; someone invited who has not joined yet has no user_id (and their invitation's id). */
export const accountContactOutput = z.object({
  user_id: z.string().nullable(),
  invitation_id: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  role: role,
  /** Taxpayer, spouse or dependent: a household's people only; null elsewhere or not said yet. */
  household_role: householdRole,
  portal_access: z.boolean(),
  notify: z.boolean(),
  email_verified: z.boolean(),
});
export type AccountContact = z.infer<typeof accountContactOutput>;

export const firmAccountOutput = z.object({
  id: z.string(),
  name: z.string(),
  kind,
  created_at: z.date(),
  contacts: z.array(accountContactOutput),
  /**
   * Set when a proof of the mailbox claimed a login that had made or joined this account before its
   * address was proven, and took it out (docs/security.md, Round 4): since when, and that login's
   * address (its owner's now; null once that login is gone). The account's people, invitations and
   * documents are the earlier holder's doing until the firm reviews them; null once it has.
   */
  claim_review: z.object({ since: z.date(), email: z.string().nullable() }).nullable(),
  /**
   * Until when the account keeps signed records (a signed document's lock, a signed Form 8879 the
   * firm's years); null: none. Deleting its last person leaves it standing without people until then.
   */
  retained_until: z.date().nullable(),
});
export type FirmAccount = z.infer<typeof firmAccountOutput>;

/** 1,000 people and 1 MB a file: a firm's whole client list in a few files, and one request's worth of work. */
export const IMPORT_MAX_ROWS = 1000;
export const IMPORT_MAX_CHARS = 1_000_000;

export const importAccountsInput = z.object({
  csv: z
    .string({ error: "csv must be the file's text" })
    .min(1, "The CSV file is empty")
    .max(IMPORT_MAX_CHARS, "The CSV file must be at most 1 MB: split it"),
  dry_run: z.boolean({ error: "dry_run must be true or false" }).default(true),
});

export const importedPersonOutput = z.object({
  line: z.number(),
  name: z.string(),
  email: z.string(),
  role,
  /** invite: a new person, emailed a link; link: an existing client with that address, added at once. */
  action: z.enum(["invite", "link"]),
});

export const importOutput = z.object({
  dry_run: z.boolean(),
  accounts: z.array(
    z.object({
      /** The new account's id; null in a dry run. */
      id: z.string().nullable(),
      name: z.string(),
      kind,
      people: z.array(importedPersonOutput),
    }),
  ),
  refused: z.array(z.object({ line: z.number(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof importOutput>;
