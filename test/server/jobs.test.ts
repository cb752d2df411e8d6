// Durable jobs: mail survives a mail server that is down and an app restart, and arrives once; a
// mail out of retries is marked failed and an admin can resend it; the sweeps run as jobs; a
// schedule runs once per time however many instances run. Postgres or the embedded database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../../server/db/database.ts";
import { emailJob } from "../../server/jobs/email.ts";
import { createJobs, type Jobs } from "../../server/jobs/queue.ts";
import { createLogger } from "../../server/logger.ts";
import { firmContactEmail } from "../../server/domains/site/service.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createUser, DEFAULT_PASSWORD, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const quiet = createLogger("silent");

/**
 * One database that outlives the app servers using it: each open() is a new connection to it, as a
 * restarted process would make. Embedded: a data directory on disk, opened by one server at a time.
 */
async function sharedDatabase(): Promise<{ open: () => Promise<TestDatabase>; dispose: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const base = await createTestDatabase();
    return {
      open: async () => ({ ...(await openDatabase({ databaseUrl: base.url, dataDir: "memory://", logger: quiet })), url: base.url, name: base.name }),
      dispose: () => base.close(),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-jobs-db-"));
  let migrated = false;
  return {
    open: async () => {
      const handle = await openDatabase({ dataDir: dir, logger: quiet });
      if (!migrated) await migrateToLatest(handle.db, quiet);
      migrated = true;
      return { ...handle, url: undefined, name: "embedded" };
    },
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function consultation(name: string, email: string) {
  return { name, email, phone: "555-0100", service: "tax-prep", message: "Please call me." };
}

async function emailJobsWaiting(db: TestServer["db"]): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from pgboss.job where name in ('email', 'email-now') and state in ('created', 'retry', 'active')`.execute(db);
  return rows[0]!.n;
}

describe("mail while the mail server is down and the app restarts", () => {
  it("every message arrives afterwards, exactly once", async () => {
    const probe = await startSmtpServer();
    const port = probe.port;
    await probe.stop();
    const env = { SMTP_URL: `smtp://127.0.0.1:${port}` };
    const shared = await sharedDatabase();
    let smtp: TestSmtpServer | undefined;
    let b: TestServer | undefined;
    try {
      const a = await startTestServer({ database: await shared.open(), env });
      const alice = await createUser(a.db);
      const bob = await createUser(a.db);
      const anon = new ApiClient(a.url);
      const sentBefore = Date.now();
      expect((await anon.post("/api/auth/forgot-password", { email: alice.email })).status).toBe(200);
      expect((await anon.post("/api/auth/forgot-password", { email: bob.email })).status).toBe(200);
      expect((await anon.post("/api/consultation/request", consultation("Dana Scully", "dana@example.com"))).status).toBe(200);
      expect((await anon.post("/api/consultation/request", consultation("Fox Mulder", "fox@example.com"))).status).toBe(200);
      const registered = { username: "carol_jobs", email: "carol@example.com", name: "Carol", password: DEFAULT_PASSWORD };
      expect((await anon.post("/api/auth/register", registered)).status).toBe(200);
      const firm = await firmContactEmail(a.deps);
      const expected = [alice.email, bob.email, firm, "dana@example.com", firm, "fox@example.com", "carol@example.com"];

      // Every job has been tried and failed at least once, and all wait in the database.
      await expect
        .poll(() => a.logs.filter((l) => l.includes("mail send failed, retrying")).length, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(expected.length);
      expect(await emailJobsWaiting(a.db)).toBe(expected.length);
      await a.close();

      // A new process on the same database; the mail server comes back after it.
      b = await startTestServer({ database: await shared.open(), env });
      smtp = await startSmtpServer({ port });
      const upAt = Date.now();
      await smtp.waitForMessages(expected.length, 30_000);
      const drainedMs = Date.now() - upAt;
      // Long enough for any second copy (a retry, the other process's job) to have arrived.
      await new Promise((resolve) => setTimeout(resolve, 3000));

      const received = smtp.messages;
      expect(received.map((m) => m.to[0]).sort()).toEqual([...expected].sort());
      expect(new Set(received.map((m) => m.headers["message-id"])).size).toBe(expected.length);
      expect(await emailJobsWaiting(b.db)).toBe(0);
      const consultations = await b.db.selectFrom("consultation_requests").select(["email_sent_at", "email_failed_at"]).execute();
      expect(consultations).toHaveLength(2);
      for (const row of consultations) expect(row).toMatchObject({ email_sent_at: expect.any(Date), email_failed_at: null });
      // The reset links that arrived are the ones that work: each user's newest token is in the mail.
      const resetMail = received.find((m) => m.to[0] === alice.email)!;
      const token = /reset_token=([A-Za-z0-9_-]+)/.exec(resetMail.text)![1]!;
      const reset = await new ApiClient(b.url).post("/api/auth/reset-password", { token, new_password: "Green-Canyon-Ledger-77" });
      expect(reset.status).toBe(200);
      console.log(
        `mail backlog: ${expected.length} queued, ${received.length} received (${new Set(received.map((m) => m.headers["message-id"])).size} distinct), ` +
          `drained ${(drainedMs / 1000).toFixed(1)} s after the mail server came back, ${((Date.now() - sentBefore) / 1000).toFixed(1)} s in all`,
      );
    } finally {
      await b?.close();
      await smtp?.stop();
      await shared.dispose();
    }
  });
});

describe("a notification out of retries", () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let admin: ApiClient;

  beforeAll(async () => {
    smtp = await startSmtpServer({ rejectAll: true });
    // One retry, so the job gives up within seconds.
    server = await startTestServer({ env: { SMTP_URL: smtp.url }, jobs: { retryLimit: 1 } });
    admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it("is marked failed, logged without its body, shown to the admin, and can be resent once", async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.post("/api/consultation/request", consultation("Walter Skinner", "walter@example.com"))).status).toBe(200);
    const listed = async () => (await admin.get("/api/admin/consultations")).body[0];
    await expect.poll(async () => (await listed()).email_failed_at, { timeout: 15_000 }).not.toBeNull();
    expect(await listed()).toMatchObject({ email_sent_at: null });
    const gaveUp = server.logs
      .map((l) => JSON.parse(l) as { msg?: string; level?: number; attempts?: number; mail?: { kind?: string } })
      .filter((e) => e.msg === "mail not sent");
    expect(gaveUp.some((e) => e.level === 50 && e.attempts === 2 && e.mail?.kind === "consultation-notification")).toBe(true);
    expect(server.logs.join("\n")).not.toContain("Please call me.");

    // Still refused: nothing is resent until the admin asks; then the mail server takes it.
    expect(smtp.messages).toHaveLength(0);
    const port = smtp.port;
    await smtp.stop();
    smtp = await startSmtpServer({ port });
    const { id } = await listed();
    const resent = await admin.post(`/api/admin/consultations/${id}/resend-email`);
    expect(resent.status).toBe(200);
    // The visitor's confirmation, retrying on its own, may reach the mail server first.
    await expect.poll(() => smtp.messages.filter((m) => m.subject.includes("Walter Skinner")).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await listed()).email_sent_at, { timeout: 5000 }).not.toBeNull();
    expect((await listed()).email_failed_at).toBeNull();

    const again = await admin.post(`/api/admin/consultations/${id}/resend-email`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/every try failed/);
    expect((await admin.post("/api/admin/consultations/00000000-0000-4000-8000-000000000000/resend-email")).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.messages.filter((m) => m.subject.includes("Walter Skinner"))).toHaveLength(1);
  });
});

describe("a mail job handed out again", () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it("sends nothing the second time", async () => {
    const user = await createUser(server.db);
    const id = await server.deps.jobs.send("email", { kind: "password-reset", userId: user.id });
    await smtp.waitForMessages(1);
    await expect.poll(async () => (await server.deps.jobs.boss.findJobs("email-now", { id }))[0]?.state, { timeout: 5000 }).toBe("completed");
    // As when an instance that sent the message died before completing its job, and another ran it.
    const [job] = await server.deps.jobs.boss.findJobs("email-now", { id });
    await emailJob.run(server.deps, job as Parameters<typeof emailJob.run>[1]);
    expect(smtp.messages).toHaveLength(1);
    const tokens = await server.db.selectFrom("password_reset_tokens").select("token_hash").where("user_id", "=", user.id).execute();
    expect(tokens).toHaveLength(1);
  });
});

describe("the expired-rows sweep", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("runs as a job: removes what expired and keeps the rest", async () => {
    const user = await createUser(server.db);
    const now = Date.now();
    const session = (id: string, expiresAt: number) => ({
      id,
      user_id: user.id,
      kind: "client" as const,
      expires_at: new Date(expiresAt),
      created_at: new Date(now - 60_000),
      last_used_at: new Date(now - 60_000),
    });
    await server.db
      .insertInto("sessions")
      .values([session("expired-session", now - 1000), session("live-session", now + 3_600_000)])
      .execute();
    await server.db
      .insertInto("sent_mail")
      .values([
        { job_id: "00000000-0000-4000-8000-000000000001", kind: "password-reset", sent_at: new Date(now - 31 * 24 * 3_600_000) },
        { job_id: "00000000-0000-4000-8000-000000000002", kind: "password-reset", sent_at: new Date(now - 1000) },
      ])
      .execute();
    await sql`insert into rate_limits (key, points, expire) values ('spent', 1, ${now - 1000}), ('live', 1, ${now + 3_600_000})`.execute(server.db);

    const id = await server.deps.jobs.send("sweep-expired-rows", {});
    await expect
      .poll(async () => (await server.deps.jobs.boss.findJobs("sweep-expired-rows", { id }))[0]?.state, { timeout: 10_000 })
      .toBe("completed");
    const sessions = await server.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(sessions.map((r) => r.id)).toEqual(["live-session"]);
    const mail = await server.db.selectFrom("sent_mail").select("job_id").execute();
    expect(mail.map((r) => r.job_id)).toEqual(["00000000-0000-4000-8000-000000000002"]);
    const { rows } = await sql<{ key: string }>`select key from rate_limits where key in ('spent', 'live')`.execute(server.db);
    expect(rows.map((r) => r.key)).toEqual(["live"]);
  });
});

describe("a schedule with two instances on one database", () => {
  it("runs once per time, on one of them", async () => {
    const database = await createTestDatabase();
    const runs: { instance: string; at: Date }[] = [];
    const instance = (label: string): Jobs =>
      createJobs(
        database,
        quiet,
        [{ name: "sweep-expired-rows", schedule: "* * * * *", run: async () => void runs.push({ instance: label, at: new Date() }) }],
        { pollingIntervalSeconds: 0.5, cronMonitorIntervalSeconds: 1 },
      );
    const both = [instance("a"), instance("b")];
    const deps = {} as Parameters<Jobs["start"]>[0];
    try {
      // Start well inside a minute: a job due at the end of one minute may run a moment into the
      // next, next to that minute's own, and run times could no longer tell the two minutes apart.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 500));
      const startedAt = Date.now();
      await Promise.all(both.map((jobs) => jobs.start(deps)));
      // Both instances look every second for 5 seconds: each could have run it up to 5 times.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const minutes = new Set<number>();
      for (let t = Math.floor(startedAt / 60_000); t <= Math.floor(Date.now() / 60_000); t++) minutes.add(t);
      expect(runs.length).toBeGreaterThanOrEqual(1);
      // One run per minute at most (the window may cross into a second minute).
      expect(runs.length).toBeLessThanOrEqual(minutes.size);
      expect(new Set(runs.map((r) => Math.floor(r.at.getTime() / 60_000))).size).toBe(runs.length);
    } finally {
      await Promise.all(both.map((jobs) => jobs.stop()));
      await database.close();
    }
  });
});

describe("a job still running when the queue stops", () => {
  it("ends after the database is closed without a rejection reaching the process", async () => {
    const database = await createTestDatabase();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const began = new Promise<void>((resolve) => (started = resolve));
    const jobs = createJobs(
      database,
      quiet,
      [
        {
          name: "sweep-expired-rows",
          run: async () => {
            started();
            await running;
            throw new Error("the job failed after the queue stopped");
          },
        },
      ],
      { pollingIntervalSeconds: 0.5, stopTimeoutMs: 200 },
    );
    process.on("unhandledRejection", onRejection);
    try {
      await jobs.start({} as Parameters<Jobs["start"]>[0]);
      await jobs.send("sweep-expired-rows", {} as never);
      await began;
      // stop() gives up waiting after 200 ms; the database closes under the running job.
      await jobs.stop();
      await database.close();
      finish();
      // pg-boss records the failure on its own time: give it a moment to try.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(rejections).toEqual([]);
    } finally {
      finish();
      process.off("unhandledRejection", onRejection);
    }
  });
});
