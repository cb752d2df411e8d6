// A real SMTP server on loopback (smtp-server) that keeps every message it receives, with a small
// MIME reader for the parts our mails use (multipart/alternative and attachments, quoted-printable or base64).
// `stop()` closes the port so tests can see what the app does while the mail server is down.
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  /** Parts sent as attachments (a calendar entry, say), decoded to text. */
  attachments: MailAttachment[];
};

export type MailAttachment = { filename: string; contentType: string; content: string };

export type TestSmtpServer = {
  port: number;
  /** For SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Resolves once at least `count` messages arrived; fails after `timeoutMs`. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /**
   * Resolves with the first message to `to` whose subject matches; fails after `timeoutMs`. Bulk
   * mail goes out in batches behind what was queued before it, so a busy test file waits a while.
   */
  waitForMail(to: string, subject: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
};

/**
 * `rejectAll` answers every message with a permanent 550, as a mail server refusing it would;
 * `refuse` answers 451 (try again later) to the messages whose recipients it picks, while it does.
 */
export async function startSmtpServer(
  opts: { port?: number; rejectAll?: boolean; refuse?: (to: string[]) => boolean } = {},
): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // The app's mailer keeps pooled connections open: stopping answers them 421 and closes them
    // within a second, as a mail server going down does, instead of smtp-server's 30 s grace.
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (opts.rejectAll) {
          callback(Object.assign(new Error("Message refused"), { responseCode: 550 }));
          return;
        }
        if (opts.refuse?.(session.envelope.rcptTo.map((r) => r.address))) {
          callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMessage(raw),
        });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      const address = server.server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitForMessages(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} message(s), got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return messages;
    },
    async waitForMail(to, subject, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = messages.find((m) => m.to.includes(to) && subject.test(m.subject));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to}; got ${messages.map((m) => `${m.to}: ${m.subject}`).join(", ")}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Part = { headers: Record<string, string>; body: string };

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = part.body
      .replace(/=\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`)
      .replace(/%(?![0-9A-F]{2})/gi, "%25");
    return decodeURIComponent(bytes);
  }
  return part.body;
}

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeURIComponent(data.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, "%$1")),
  );
}

function parseMessage(raw: string): Pick<ReceivedMail, "headers" | "subject" | "text" | "html" | "attachments"> {
  const top = splitPart(raw);
  let text = "";
  let html = "";
  const attachments: MailAttachment[] = [];
  const visit = (part: Part) => {
    const type = part.headers["content-type"] ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    const attachment = /^attachment/i.test(part.headers["content-disposition"] ?? "");
    if (attachment) {
      const filename = /filename="?([^";]+)"?/i.exec(part.headers["content-disposition"]!)?.[1] ?? "";
      attachments.push({ filename, contentType: type, content: decodeBody(part) });
    } else if (/^multipart\//i.test(type) && boundary) {
      const sections = part.body.split(`--${boundary}`).slice(1);
      for (const section of sections) {
        if (section.startsWith("--")) break;
        visit(splitPart(section.replace(/^\n/, "")));
      }
    } else if (/^text\/html/i.test(type)) html = decodeBody(part);
    else if (/^text\/plain/i.test(type)) text = decodeBody(part);
  };
  visit(top);
  return { headers: top.headers, subject: decodeHeader(top.headers.subject ?? ""), text, html, attachments };
}

/** The token of the `param` link in a received mail (`/?param=<token>`); throws when there is none. */
export function linkToken(mail: ReceivedMail, param: string): string {
  const link = new RegExp(`[?&]${param}=([a-z2-7]+)`).exec(mail.text);
  if (!link) throw new Error(`no ${param} link in:\n${mail.text}`);
  return link[1]!;
}
