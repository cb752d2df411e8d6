export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** `<unique@domain>`: the same for every attempt at one message, so a copy sent twice shows as one. */
  messageId?: string;
};

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
