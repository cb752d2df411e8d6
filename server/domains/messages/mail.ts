// The email that messages wait unread (docs/decisions.md, "Secure messages"): written when the
// burst's job runs, five minutes after the message that opened it, and only if something still
// waits for that side then. It never holds a message's text: the portal is where it is read.
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import { accountMailRecipients } from "../accounts/service.ts";
import { greeting } from "../auth/mail.ts";
import type { Db } from "../../db/types.ts";
import { findMailAccount, findThreadForFirm, findThreadId, privateReader, type Side, takeMailBurst } from "./queries.ts";

/**
 * To `side`, five minutes after (clientId: the account; threadId: the conversation, the account's
 * own when a job queued before private conversations has none) the first message of a burst:
 * messages wait unread; nothing if they were read meanwhile.
 */
export type MessageWaitingJob = { clientId: string; threadId?: string; side: Side; dueAt: string };

export async function messageWaitingMail(deps: AppDeps, job: MessageWaitingJob): Promise<Outgoing | null> {
  const thread = job.threadId
    ? await findThreadForFirm(deps.db, { all: true }, job.threadId)
    : { id: await findThreadId(deps.db, { accountId: job.clientId, privateTo: null }), isPrivate: false, privateTo: null };
  if (!thread?.id) return null;
  const waiting = await takeMailBurst(deps.db, thread.id, job.side, new Date(job.dueAt));
  if (!waiting) return null;
  const firm = await firmName(deps);
  const count = waiting === 1 ? "a new message" : `${waiting} new messages`;
  if (job.side === "client") {
    // A private conversation's mail goes to its person alone (docs/decisions.md, "Private conversations").
    const client = thread.isPrivate
      ? thread.privateTo && (await privateMailRecipient(deps.db, job.clientId, thread.privateTo))
      : await accountMailRecipients(deps.db, job.clientId);
    if (!client) return null;
    const body = composeEmail({
      firmName: firm,
      heading: "You have a new message",
      paragraphs: [client.hello, `You have ${count} from ${firm} in the client portal. For your privacy, messages are only shown there.`],
      action: { label: "Read it in the client portal", url: new URL("/dashboard?tab=messages", deps.config.publicUrl).toString() },
    });
    return { message: { to: client.to, subject: `New message from ${firm}`, ...body } };
  }
  const client = await findMailAccount(deps.db, job.clientId);
  if (!client) return null;
  const label = client.username ?? client.email;
  const body = composeEmail({
    firmName: firm,
    heading: "A client wrote to you",
    paragraphs: [`${client.name} (${label}) sent ${waiting === 1 ? "a message" : `${waiting} messages`} that no one at the firm has read yet.`],
    details: [["Client", `${client.name} (${client.email})`]],
    action: {
      label: "Open the conversation",
      url: new URL(
        `/admin/dashboard?tab=messages&client=${job.clientId}${thread.isPrivate ? `&conversation=${thread.id}` : ""}`,
        deps.config.publicUrl,
      ).toString(),
    },
  });
  return { message: { to: await firmContactEmail(deps), subject: `New message from ${oneLine(client.name, 80)}`, ...body } };
}

/** The one person of a private conversation, as accountMailRecipients names an account's. */
async function privateMailRecipient(db: Db, accountId: string, personId: string): Promise<{ to: string; hello: string } | undefined> {
  const person = await privateReader(db, accountId, personId);
  return person && { to: person.email, hello: greeting({ name: person.name, email_verified: person.email_verified_at !== null }) };
}
