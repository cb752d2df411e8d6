import type { Logger } from "pino";
import type { Mailer, MailMessage } from "./mailer.ts";

/** Waits between attempts: a refused connection often means a mail server restarting. */
export const RETRY_DELAYS_MS = [2_000, 10_000];

/**
 * Sends after the request has been answered, so a slow or absent mail server neither delays
 * nor fails it (and response time does not reveal whether a message was sent). Retries, then
 * reports the failure in the log with `what` (never the message body). Never rejects.
 */
export function deliverInBackground(
  mailer: Mailer,
  logger: Logger,
  message: MailMessage,
  opts: { what: Record<string, unknown>; delaysMs?: number[]; onSent?: () => Promise<void> },
): Promise<boolean> {
  const delays = opts.delaysMs ?? RETRY_DELAYS_MS;
  return (async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        await mailer.send(message);
        break;
      } catch (err) {
        const retryIn = delays[attempt];
        if (retryIn === undefined) {
          logger.error({ err, mail: opts.what, attempts: attempt + 1 }, "mail not sent");
          return false;
        }
        logger.warn({ err, mail: opts.what, attempt: attempt + 1, retryInMs: retryIn }, "mail send failed, retrying");
        await new Promise((resolve) => setTimeout(resolve, retryIn).unref());
      }
    }
    try {
      await opts.onSent?.();
    } catch (err) {
      logger.warn({ err, mail: opts.what }, "mail sent but not recorded");
    }
    return true;
  })();
}
