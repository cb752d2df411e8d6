// SMTP through nodemailer when SMTP_URL is set. Without it (development, a fresh checkout) every
// message is composed exactly as it would be sent and written to DATA_DIR/outbox as an .eml file,
// so a developer can open it; the log gets one line naming the file, never the body (reset links
// carry tokens).
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

const SMTP_TIMEOUT_MS = 10_000;
/**
 * Pooled SMTP: a burst reuses open connections instead of a handshake per message. Six: one more
 * than the bulk queue sends at once (BULK_MAIL_BATCH in jobs/email.ts), so mail a person waits for
 * never queues in the pool behind a burst. A connection is renewed after 100 messages, and one idle
 * for 5 s is closed by us (QUIT), before SMTP_TIMEOUT_MS would cut it as a dead socket.
 */
const SMTP_POOL = { pool: true, maxConnections: 6, maxMessages: 100, idleTimeout: 5_000 } as const;

export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.mailFrom);
  return outboxMailer(path.join(config.dataDir, "outbox"), config.mailFrom, logger);
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    ...SMTP_POOL,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(message) {
      await transport.sendMail(toNodemailer(message, from));
    },
    close() {
      transport.close();
    },
  };
}

function outboxMailer(outboxDir: string, from: string, logger: Logger): Mailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(message) {
      const info = await composer.sendMail(toNodemailer(message, from));
      await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`);
      // Written aside and renamed, so whoever watches the folder never opens half a message.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await fs.rename(`${file}.tmp`, file);
      logger.info({ mail: { to: message.to, subject: message.subject, file } }, "mail written to outbox");
    },
  };
}

function toNodemailer(message: MailMessage, from: string) {
  return {
    from,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    attachments: message.attachments?.map(({ filename, content, contentType }) => ({ filename, content, contentType })),
  };
}
