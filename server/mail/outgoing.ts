import type { Transaction } from "kysely";
import type { Database } from "../db/types.ts";
import type { MailMessage } from "./mailer.ts";

/**
 * What a mail composer (a domain's mail.ts) answers: a message to send now, and what having sent it
 * means for the data it is about. jobs/email.ts sends it and records it as sent.
 */
export type Outgoing = {
  message: MailMessage;
  /** Runs in the transaction that records the message as sent. */
  onSent?: (tx: Transaction<Database>, at: Date) => Promise<void>;
};
