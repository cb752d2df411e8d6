// Client accounts (docs/decisions.md, "Client accounts (issue 32)"): what a client's data belongs
// to, reached by its contacts. Importable by the web client (zod only).
import { z } from "zod";
import { idSchema } from "../shared-schemas.ts";

export const ACCOUNT_KINDS = ["individual", "household", "business"] as const;
export const CONTACT_ROLES = ["owner", "member"] as const;
/** A household person's role (docs/decisions.md, "A household person's role"); other accounts' people have none. */
export const HOUSEHOLD_ROLES = ["taxpayer", "spouse", "dependent"] as const;
export const HOUSEHOLD_ROLE_LABELS = { taxpayer: "Taxpayer", spouse: "Spouse", dependent: "Dependent" } as const;
export const householdRole = z.enum(HOUSEHOLD_ROLES, { error: "household_role must be taxpayer, spouse or dependent (or null)" }).nullable();
export const HOUSEHOLD_ROLE_ONLY = "Only a household account's people have a household role (taxpayer, spouse or dependent)";

/** An account as one of its contacts sees it: with their own role in it. */
export const accountOutput = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(ACCOUNT_KINDS),
  role: z.enum(CONTACT_ROLES),
});
export type CurrentAccount = z.infer<typeof accountOutput>;

export const switchAccountInput = z.object({ account_id: idSchema });
