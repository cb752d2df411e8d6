export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** `<unique@domain>`: the same for every attempt at one message, so a copy sent twice shows as one. */
  messageId?: string;
  /** Files sent with the message, such as a calendar entry (.ics). */
  attachments?: MailAttachment[];
};

export type MailAttachment = {
  filename: string;
  content: string;
  /** With its parameters: `text/calendar; charset=utf-8; method=REQUEST`. */
  contentType: string;
};

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Closes the connections a pooled mailer keeps open (on shutdown, after the jobs stopped). */
  close?(): void;
}
