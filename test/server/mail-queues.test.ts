// Mail that never waits (docs/decisions.md, Mail queues): the firm invites a burst of clients at
// once and a client asks for a password reset during it; with production's polling, the burst is
// all out within 30 s and the reset within 10 s, each message once. Then the mail server goes down
// while mail is queued in both queues, comes back, and everything arrives, once. Postgres or the
// embedded database.
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_JOB_OPTIONS } from "../../server/jobs/queue.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const BURST = 100;
const BURST_TARGET_MS = 30_000;
const RESET_TARGET_MS = 10_000;
const INVITE_CONCURRENCY = 10;

let server: TestServer;
let smtp: TestSmtpServer;
/** Addresses the mail server answers "try again later" for, while they are here. */
const refused = new Set<string>();
let admin: ApiClient;
let client: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer({ refuse: (to) => to.some((address) => refused.has(address)) });
  // Production's polling pace: the test's shorter default would hide what this is about.
  server = await startTestServer({ env: { SMTP_URL: smtp.url }, jobs: { pollingIntervalSeconds: DEFAULT_JOB_OPTIONS.pollingIntervalSeconds } });
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  client = await createUser(server.db);
});

afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

/** Invites `count` new addresses, `INVITE_CONCURRENCY` requests at a time, as a firm's import would. */
async function invite(prefix: string, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.com`);
  let next = 0;
  const worker = async () => {
    while (next < emails.length) {
      const email = emails[next++]!;
      const res = await admin.post("/api/admin/invitations", { name: `Invitee ${email}`, email });
      expect(res.status, res.text).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: INVITE_CONCURRENCY }, worker));
  return emails;
}

const invitationsTo = (emails: string[]) => smtp.messages.filter((m) => /invitation/i.test(m.subject) && emails.includes(m.to[0]!));
const resetsTo = (email: string) => smtp.messages.filter((m) => /reset/i.test(m.subject) && m.to.includes(email));

/** Each address got exactly one message, and no message id came twice. */
async function expectOnce(emails: string[], kind: "invitation" | "reset"): Promise<void> {
  // Long enough for a second copy (a retry, a batch handed out again) to have arrived.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  for (const email of emails) {
    const got = kind === "invitation" ? invitationsTo([email]) : resetsTo(email);
    expect(got, email).toHaveLength(1);
  }
  const ids = smtp.messages.map((m) => m.headers["message-id"]);
  expect(new Set(ids).size).toBe(ids.length);
}

describe("a burst of invitations", () => {
  it(`leaves within ${BURST_TARGET_MS / 1000} s, and a password reset asked during it arrives within ${RESET_TARGET_MS / 1000} s`, async () => {
    const started = Date.now();
    const inviting = invite("burst", BURST);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const resetAsked = Date.now();
    expect((await new ApiClient(server.url).post("/api/auth/forgot-password", { email: client.email })).status).toBe(200);
    await expect.poll(() => resetsTo(client.email).length, { timeout: RESET_TARGET_MS, interval: 20 }).toBe(1);
    const resetMs = Date.now() - resetAsked;
    const emails = await inviting;
    await expect
      .poll(() => invitationsTo(emails).length, { timeout: Math.max(0, BURST_TARGET_MS - (Date.now() - started)), interval: 20 })
      .toBe(BURST);
    const burstMs = Date.now() - started;
    console.log(
      `mail burst: ${BURST} invitations out in ${(burstMs / 1000).toFixed(1)} s; reset arrived ${(resetMs / 1000).toFixed(1)} s after it was asked`,
    );
    expect(burstMs).toBeLessThanOrEqual(BURST_TARGET_MS);
    expect(resetMs).toBeLessThanOrEqual(RESET_TARGET_MS);
    await expectOnce(emails, "invitation");
    await expectOnce([client.email], "reset");
  });
});

// The burst spends the admin's hourly allowance of mail to clients (server/auth/rate-limit.ts,
// firmMailToClients: 100) on purpose; the tests after it start a new hour.
beforeEach(async () => {
  await sql`delete from rate_limits where key like 'firm_mail_user%'`.execute(server.db);
});

describe("one message of a batch refused", () => {
  it("retries by itself: the rest of its batch arrives at once and once, and it arrives later, once", async () => {
    const emails = Array.from({ length: 10 }, (_, i) => `batch-${i}@example.com`);
    refused.add(emails[3]!);
    const sent = smtp.messages.length;
    await invite("batch", emails.length);
    await expect.poll(() => invitationsTo(emails).length, { timeout: 15_000, interval: 50 }).toBe(emails.length - 1);
    expect(invitationsTo([emails[3]!])).toEqual([]);
    expect(server.logs.some((l) => l.includes("mail send failed, retrying") && l.includes('"invitation"'))).toBe(true);
    refused.delete(emails[3]!);
    // The test's retry delay is 1 s, doubling with jitter: one of the next tries takes it.
    await expect.poll(() => invitationsTo([emails[3]!]).length, { timeout: 20_000, interval: 50 }).toBe(1);
    await expectOnce(emails, "invitation");
    expect(smtp.messages.length - sent).toBe(emails.length);
    // Only the refused message was tried again, not the batch it came in.
    const { rows } = await sql<{ email: string }>`select i.email from pgboss.job j join invitations i on i.id = (j.data->>'invitationId')::uuid
      where j.name = 'email' and j.retry_count > 0 and i.email like 'batch-%'`.execute(server.db);
    expect(rows.map((r) => r.email)).toEqual([emails[3]]);
  });
});

describe("the mail server down for a while", () => {
  it("loses nothing: bulk and waiting-for mail queued meanwhile all arrive once it is back, once each", async () => {
    const port = smtp.port;
    const before = smtp.messages;
    await smtp.stop();
    const emails = await invite("outage", 20);
    expect((await new ApiClient(server.url).post("/api/auth/forgot-password", { email: client.email })).status).toBe(200);
    // Both queues have tried and failed (the reset and at least one invitation).
    await expect
      .poll(
        () => {
          const failed = server.logs.filter((l) => l.includes("mail send failed, retrying"));
          return failed.some((l) => l.includes('"password-reset"')) && failed.some((l) => l.includes('"invitation"'));
        },
        { timeout: 15_000 },
      )
      .toBe(true);

    smtp = await startSmtpServer({ port });
    await expect.poll(() => invitationsTo(emails).length + resetsTo(client.email).length, { timeout: 30_000, interval: 50 }).toBe(emails.length + 1);
    await expectOnce(emails, "invitation");
    await expectOnce([client.email], "reset");
    // Nothing sent before the outage came again.
    expect(smtp.messages.filter((m) => before.some((b) => b.headers["message-id"] === m.headers["message-id"]))).toEqual([]);
  });
});
