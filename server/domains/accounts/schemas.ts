// Client accounts (docs/decisions.md, "Client accounts (issue 32)"): what a client's data belongs
// to, reached by its contacts. Importable by the web client (zod only).
import { z } from "zod";
import { idSchema } from "../shared-schemas.ts";

export const ACCOUNT_KINDS = ["individual", "household", "business"] as const;
export const CONTACT_ROLES = ["owner", "member"] as const;

/** An account as one of its contacts sees it: with their own role in it. */
export const accountOutput = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(ACCOUNT_KINDS),
  role: z.enum(CONTACT_ROLES),
});
export type CurrentAccount = z.infer<typeof accountOutput>;

export const switchAccountInput = z.object({ account_id: idSchema });
