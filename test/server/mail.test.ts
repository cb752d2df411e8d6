import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { createLogger } from "../../server/logger.ts";
import { composeEmail } from "../../server/mail/compose.ts";
import { createMailer } from "../../server/mail/create-mailer.ts";
import { deliverInBackground } from "../../server/mail/deliver.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let refusing: TestSmtpServer;

beforeAll(async () => {
  refusing = await startSmtpServer({ rejectAll: true });
});
afterAll(() => refusing.stop());

function capturedLogger() {
  const lines: string[] = [];
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    }),
  );
  return { logger, lines };
}

describe("deliverInBackground", () => {
  it("retries, then reports the failure in the log without the message body", async () => {
    const { logger, lines } = capturedLogger();
    const mailer = createMailer(loadConfig({ SMTP_URL: refusing.url, DATA_DIR: "/nonexistent" }), logger);
    let recorded = false;
    const sent = await deliverInBackground(
      mailer,
      logger,
      { to: "office@example.com", subject: "Consultation request", text: "secret body 7f3a" },
      { what: { kind: "test", requestId: "r-1" }, delaysMs: [10, 10], onSent: async () => void (recorded = true) },
    );
    expect(sent).toBe(false);
    expect(recorded).toBe(false);
    const entries = lines.map((l) => JSON.parse(l) as { msg: string; level: number; attempts?: number; mail?: unknown });
    expect(entries.filter((e) => e.msg === "mail send failed, retrying")).toHaveLength(2);
    const failure = entries.find((e) => e.msg === "mail not sent");
    expect(failure).toMatchObject({ level: 50, attempts: 3, mail: { kind: "test", requestId: "r-1" } });
    expect(lines.join("\n")).not.toContain("secret body 7f3a");
  });
});

describe("composeEmail", () => {
  it("escapes every piece of data in the HTML part and keeps the text part verbatim", () => {
    const { text, html } = composeEmail({
      firmName: "Smith & <Co>",
      heading: "Hi \"there\"",
      paragraphs: ["<img src=x onerror=alert(1)>"],
      details: [["Name", "O'Brien"]],
      action: { label: "Open", url: "https://example.com/?a=1&b=\"2\"" },
    });
    expect(html).not.toContain("<img");
    expect(html).toContain("Smith &#38; &#60;Co&#62;");
    expect(html).toContain('href="https://example.com/?a=1&#38;b=&#34;2&#34;"');
    expect(html).toContain("O&#39;Brien");
    expect(text).toContain("<img src=x onerror=alert(1)>");
    expect(text).toContain("Open: https://example.com/?a=1&b=\"2\"");
    expect(text.trimEnd().endsWith("- Smith & <Co>")).toBe(true);
  });
});
