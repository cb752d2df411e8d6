// Two app instances on one Postgres database and one S3 bucket, as behind a load balancer: the API
// walked alternating between them. Nothing an instance keeps to itself may matter: sessions,
// files, limits and jobs all live in what they share. Needs a real Postgres (the embedded database
// belongs to one process).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONSECUTIVE_LOGIN_FAILURES } from "../../server/auth/rate-limit.ts";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { DEFAULT_PASSWORD } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n", "latin1"), randomBytes(4000)]);

describe.skipIf(!process.env.DATABASE_URL)("two instances on one database and one bucket", () => {
  let database: TestDatabase;
  let s3: TestS3;
  let smtp: TestSmtpServer;
  let a: TestServer;
  let b: TestServer;

  /** A connection pool of the instance's own to the shared database; closing it leaves the database. */
  async function connection(): Promise<TestDatabase> {
    const handle = await openDatabase({ databaseUrl: database.url, dataDir: "memory://", logger: createLogger("silent") });
    return { ...handle, url: database.url, name: database.name };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    s3 = await startTestS3();
    smtp = await startSmtpServer();
    const env = { ...s3.env, SMTP_URL: smtp.url };
    a = await startTestServer({ database: await connection(), env });
    b = await startTestServer({ database: await connection(), env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    await s3?.close();
    await smtp?.stop();
  });

  /** One browser's cookies, sent to either instance (each with its own Origin). */
  function browser(): { onA: ApiClient; onB: ApiClient } {
    const onA = new ApiClient(a.url);
    const onB = Object.assign(new ApiClient(b.url), { cookies: onA.cookies });
    return { onA, onB };
  }

  it("walks the API alternating between them", async () => {
    const { onA, onB } = browser();
    const username = `walker_${randomBytes(3).toString("hex")}`;
    const email = `${username}@example.com`;

    // Register on A, log in on B; the session works on both.
    expect((await onA.post("/api/auth/register", { username, email, name: "Walker", password: DEFAULT_PASSWORD })).status).toBe(200);
    await onA.post("/api/auth/logout");
    expect((await onB.post("/api/auth/login", { username, password: DEFAULT_PASSWORD })).status).toBe(200);
    expect((await onA.get("/api/auth/me")).body).toMatchObject({ username });

    // Upload on A; download and delete on B; gone for A too; deleted for good on A, gone from B's trash.
    const form = new FormData();
    form.append("file", new Blob([PDF], { type: "application/pdf" }), "return.pdf");
    const uploaded = await onA.request("POST", "/api/documents/upload", { body: form });
    expect(uploaded.status).toBe(201);
    const download = await fetch(`${b.url}/api/documents/${uploaded.body.id}/download`, {
      headers: { Cookie: [...onB.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
    expect((await onB.delete(`/api/documents/${uploaded.body.id}`)).status).toBe(200);
    expect((await onA.get("/api/documents/root")).body).toEqual([]);
    expect((await onA.get(`/api/documents/${uploaded.body.id}/download`)).status).toBe(404);
    expect((await onA.delete(`/api/trash/${uploaded.body.id}`)).status).toBe(200);
    expect((await onB.get("/api/trash")).body).toEqual([]);

    // A logout on A ends the session on B.
    const cookie = [...onA.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    expect((await onA.post("/api/auth/logout")).status).toBe(200);
    expect((await onB.get("/api/auth/me", { cookies: false, headers: { Cookie: cookie } })).status).toBe(401);

    // Wrong passwords alternating between A and B count toward one lockout.
    const guesser = browser();
    const statuses: number[] = [];
    for (let i = 0; i < MAX_CONSECUTIVE_LOGIN_FAILURES + 1; i++) {
      const client = i % 2 === 0 ? guesser.onA : guesser.onB;
      statuses.push((await client.post("/api/auth/login", { username, password: `Wrong-Guess-${i}` })).status);
    }
    expect(statuses.slice(0, MAX_CONSECUTIVE_LOGIN_FAILURES).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await guesser.onB.post("/api/auth/login", { username, password: DEFAULT_PASSWORD })).status).toBe(429);

    // A job enqueued on A runs once, on whichever instance took it.
    expect((await onA.post("/api/auth/forgot-password", { email })).status).toBe(200);
    await expect.poll(() => smtp.messages.filter((m) => m.subject.startsWith("Reset your")).length, { timeout: 10_000 }).toBe(1);
    // Both instances poll every half second: a second copy would be here by now.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const toWalker = smtp.messages.filter((m) => m.to.includes(email));
    expect(toWalker.filter((m) => m.subject.startsWith("Reset your"))).toHaveLength(1);
    expect(toWalker.filter((m) => m.subject.startsWith("Verify your email"))).toHaveLength(1);
    // No mail went out twice (the lockout's notice may still be on its way on a busy machine).
    const subjects = toWalker.map((m) => m.subject);
    expect(subjects).toEqual([...new Set(subjects)]);
  });
});
