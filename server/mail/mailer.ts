export type MailMessage = { to: string; subject: string; text: string; html?: string; replyTo?: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
