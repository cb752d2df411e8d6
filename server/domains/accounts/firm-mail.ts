import { composeEmail } from "../../mail/compose.ts";
import type { Outgoing } from "../../mail/outgoing.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";
import { contactForMailForFirm } from "./firm-queries.ts";

/** An existing client the firm added to another account: told at once, since they can open it now. */
export type ContactAddedJob = { accountId: string; userId: string };

/** Nothing to send once the person is no longer a contact of the account. */
export async function contactAddedMail(deps: AppDeps, job: ContactAddedJob): Promise<Outgoing | null> {
  const contact = await contactForMailForFirm(deps.db, job.accountId, job.userId);
  if (!contact) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "You can now reach another client account",
    paragraphs: [
      `Hello ${contact.name},`,
      `${firm} added you to the client account "${contact.account_name}" on its secure client portal.`,
      "Sign in as usual: the account switcher at the top of the portal opens it.",
    ],
    action: { label: "Open the portal", url: new URL("/", deps.config.publicUrl).toString() },
    footer: "If you did not expect this, tell the firm: it can remove you from the account.",
  });
  return { message: { to: contact.email, subject: `${firm} added you to a client account`, ...body } };
}
