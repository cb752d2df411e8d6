// Scorecard item 4: brute-force protection on login and forgot-password, stored in the database so
// it holds across a restart and across two app servers on one database.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Argon2Pool } from "../../server/auth/argon2-pool.ts";
import {
  LOGIN_LOCKOUT_SECONDS,
  MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR,
  MAX_CONSECUTIVE_LOGIN_FAILURES,
  MAX_CONSULTATION_REQUESTS_PER_IP_PER_HOUR,
  MAX_LOGIN_ATTEMPTS_PER_IP_PER_HOUR,
  MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE,
  MAX_REGISTRATIONS_PER_IP_PER_HOUR,
  MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR,
  MAX_RESET_REQUESTS_PER_IP_PER_HOUR,
  deleteExpiredRateLimits,
} from "../../server/auth/rate-limit.ts";
import { loadConfig } from "../../server/config.ts";
import { migrateToLatest, openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createUser, DEFAULT_PASSWORD, signIn } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

// One reverse proxy in front: the right-most X-Forwarded-For entry is the client's address.
const TRUST_PROXY = { TRUST_PROXY: "1" };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: TRUST_PROXY });
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

function from(ip: string, url = server.url): ApiClient {
  return new ApiClient(url, { Origin: url, "X-Forwarded-For": ip });
}

function login(client: ApiClient, username: string, password: string, portal: "client" | "admin" = "client") {
  return client.post(portal === "admin" ? "/api/admin/login" : "/api/auth/login", { username, password });
}

async function failTimes(client: ApiClient, username: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await login(client, username, `Wrong-Guess-${i}`)).status);
  return statuses;
}

describe("login", () => {
  it("answers the 11th consecutive failure with 429 and a retry time, for 15 minutes, without checking the password", async () => {
    const user = await createUser(server.db);
    const client = from("198.51.100.1");
    expect(await failTimes(client, user.username!, MAX_CONSECUTIVE_LOGIN_FAILURES)).toEqual(Array(10).fill(401));

    const verifies = countVerifies();
    const eleventh = await login(client, user.username!, "Wrong-Guess-11");
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.detail).toBe("Too many failed login attempts. Please try again in 15 minutes.");
    // Even the right password is refused while locked, and no guess reaches argon2.
    const right = await login(client, user.username!, DEFAULT_PASSWORD);
    expect(right.status).toBe(429);
    expect(verifies).not.toHaveBeenCalled();
    // The same account from another address is not locked by this one.
    expect((await login(from("198.51.100.2"), user.username!, DEFAULT_PASSWORD)).status).toBe(200);
    // Case does not give an attacker a fresh counter.
    expect((await login(client, user.username!.toUpperCase(), DEFAULT_PASSWORD)).status).toBe(429);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + (LOGIN_LOCKOUT_SECONDS - 30) * 1000);
    const stillLocked = await login(client, user.username!, DEFAULT_PASSWORD);
    expect(stillLocked.status).toBe(429);
    expect(stillLocked.body.detail).toBe("Too many failed login attempts. Please try again in 1 minute.");
    vi.setSystemTime(Date.now() + 31_000);
    expect((await login(client, user.username!, DEFAULT_PASSWORD)).status).toBe(200);
  });

  it("locks the admin login the same way (same account, same counter)", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const client = from("198.51.100.3");
    await failTimes(client, admin.username!, 6);
    for (let i = 0; i < 4; i++) expect((await login(client, admin.username!, "Wrong-Admin-1", "admin")).status).toBe(401);
    expect((await login(client, admin.username!, DEFAULT_PASSWORD, "admin")).status).toBe(429);
  });

  it("a success resets the consecutive count", async () => {
    const user = await createUser(server.db);
    const client = from("198.51.100.4");
    expect(await failTimes(client, user.username!, 9)).toEqual(Array(9).fill(401));
    expect((await login(client, user.username!, DEFAULT_PASSWORD)).status).toBe(200);
    expect(await failTimes(client, user.username!, 10)).toEqual(Array(10).fill(401));
    expect((await login(client, user.username!, "Wrong-Again")).status).toBe(429);
  });

  it("counts username and email logins of one account together", async () => {
    const user = await createUser(server.db);
    const client = from("198.51.100.7");
    for (let i = 0; i < MAX_CONSECUTIVE_LOGIN_FAILURES; i++) {
      const name = i % 2 === 0 ? user.username! : user.email.toUpperCase();
      expect((await login(client, name, `Wrong-${i}`)).status).toBe(401);
    }
    expect((await login(client, user.email, DEFAULT_PASSWORD)).status).toBe(429);
    expect((await login(client, user.username!, DEFAULT_PASSWORD)).status).toBe(429);
  });

  it("counts the hourly failures of one account across username and email", async () => {
    const user = await createUser(server.db);
    let failures = 0;
    for (let ip = 10; failures < MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR; ip++) {
      const batch = Math.min(9, MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR - failures);
      const name = ip % 2 === 0 ? user.username! : user.email;
      expect(await failTimes(from(`192.0.2.${ip}`), name, batch)).toEqual(Array(batch).fill(401));
      failures += batch;
    }
    expect((await login(from("192.0.2.250"), user.email, DEFAULT_PASSWORD)).status).toBe(429);
  });

  it("limits unknown usernames the same way (no enumeration through the limiter)", async () => {
    const client = from("198.51.100.5");
    expect(await failTimes(client, "nobody_here", 10)).toEqual(Array(10).fill(401));
    const res = await login(client, "nobody_here", "whatever-1");
    expect(res.status).toBe(429);
    expect(res.body.detail).toMatch(/^Too many failed login attempts\. Please try again in 15 minutes\.$/);
  });

  it("parallel guesses cannot slip past the limit", async () => {
    const user = await createUser(server.db);
    const client = from("198.51.100.6");
    const verifies = countVerifies();
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => login(client, user.username!, `Parallel-${i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_CONSECUTIVE_LOGIN_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - MAX_CONSECUTIVE_LOGIN_FAILURES);
    expect(verifies).toHaveBeenCalledTimes(MAX_CONSECUTIVE_LOGIN_FAILURES);
  });

  it("allows at most 100 failures per hour per account, whatever the addresses", async () => {
    const user = await createUser(server.db);
    let failures = 0;
    for (let ip = 10; failures < MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR; ip++) {
      const batch = Math.min(9, MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR - failures);
      expect(await failTimes(from(`203.0.113.${ip}`), user.username!, batch)).toEqual(Array(batch).fill(401));
      failures += batch;
    }
    const res = await login(from("203.0.113.250"), user.username!, DEFAULT_PASSWORD);
    expect(res.status).toBe(429);
    expect(res.body.detail).toMatch(/Please try again in (60|59) minutes\./);
  });

  it("takes the address the trusted proxy saw: addresses the client wrote in front give no fresh counter", async () => {
    const user = await createUser(server.db);
    const spoofing = (fake: string) => new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": `${fake}, 198.51.100.70` });
    for (let i = 0; i < MAX_CONSECUTIVE_LOGIN_FAILURES; i++) {
      expect((await login(spoofing(`10.0.0.${i}`), user.username!, `Wrong-${i}`)).status).toBe(401);
    }
    expect((await login(spoofing("10.0.1.1"), user.username!, DEFAULT_PASSWORD)).status).toBe(429);
  });

  it("stores no username or address in the limiter's table", async () => {
    const user = await createUser(server.db, { username: "visible_name" });
    await failTimes(from("192.0.2.77"), user.username!, 1);
    const { rows } = await sql<{ key: string }>`select key from rate_limits`.execute(server.db);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.key).join("\n")).not.toMatch(/visible_name|192\.0\.2\.77/);
  });
});

/** Wrong-password attempts from one address, each for a username nobody has (password spraying). */
async function spray(client: ApiClient, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await login(client, `spray_${randomUUID()}`, `Spray-Guess-${i}`)).status);
  return statuses;
}

/** Counts hashing-thread verifies from here on; the real pool still does the work. */
function countVerifies() {
  return vi.spyOn(Argon2Pool.prototype, "verify");
}

/**
 * Sends each login on a raw socket and half-closes it as soon as it is written: a client that
 * gives up at once and never reads the answer. Resolves once every socket is closed.
 */
function loginsDroppedAtOnce(url: string, count: number, ipOf: (i: number) => string): Promise<void> {
  const { port, host } = new URL(url);
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const body = JSON.stringify({ username: `flood_${randomUUID()}`, password: `Flood-Guess-${i}` });
      const request = [
        "POST /api/auth/login HTTP/1.1",
        `Host: ${host}`,
        `Origin: ${url}`,
        `X-Forwarded-For: ${ipOf(i)}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "",
        body,
      ].join("\r\n");
      return new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), "127.0.0.1", () => socket.end(request));
        socket.on("error", () => resolve());
        socket.on("close", () => resolve());
        socket.resume();
      });
    }),
  ).then(() => undefined);
}

async function timedLogin(client: ApiClient, username: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await login(client, username, DEFAULT_PASSWORD);
  return { status: res.status, ms: performance.now() - started };
}

describe("login attempts per address, across usernames", () => {
  it("refuses the 31st failure within a minute from one address, before any hashing", async () => {
    const client = from("198.51.100.20");
    expect(await spray(client, MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE)).toEqual(Array(30).fill(401));

    const verifies = countVerifies();
    const refused = await login(client, `spray_${randomUUID()}`, "Spray-Guess-31");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe("Too many failed login attempts. Please try again in 1 minute.");
    expect(verifies).not.toHaveBeenCalled();
    // Other addresses keep their own count.
    const user = await createUser(server.db);
    expect((await login(from("198.51.100.21"), user.username!, DEFAULT_PASSWORD)).status).toBe(200);
  });

  it("allows 300 attempts an hour per address, whatever the minute", async () => {
    const client = from("198.51.100.22");
    vi.useFakeTimers({ toFake: ["Date"] });
    // Guesses at one name: after the 10th the account+address lock answers without hashing, and
    // every attempt still counts for the address.
    for (let minute = 0; minute < MAX_LOGIN_ATTEMPTS_PER_IP_PER_HOUR / MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE; minute++) {
      const statuses = await failTimes(client, "nobody_at_all", MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      vi.setSystemTime(Date.now() + 61_000);
    }
    const refused = await login(client, `spray_${randomUUID()}`, "Spray-Guess");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many failed login attempts\. Please try again in (4[89]|50) minutes\.$/);
  });

  it("counts the addresses of one IPv6 /64 together", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE; i++) {
      statuses.push((await login(from(`2001:db8:aa:bb:${i.toString(16)}::${i + 1}`), `spray_${randomUUID()}`, "Spray-Guess")).status);
    }
    expect(statuses).toEqual(Array(30).fill(401));
    expect((await login(from("2001:DB8:AA:BB:FFFF:FFFF:FFFF:FFFF"), `spray_${randomUUID()}`, "Spray-Guess")).status).toBe(429);
    expect((await login(from("2001:db8:aa:bc::1"), `spray_${randomUUID()}`, "Spray-Guess")).status).toBe(401);
  });

  it("never throttles correct logins: an office behind one address signs in all morning", async () => {
    const client = from("198.51.100.23");
    const staff = await Promise.all(Array.from({ length: 5 }, () => createUser(server.db)));
    expect(await spray(client, MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE - 1)).toEqual(Array(29).fill(401));
    for (let round = 0; round < 8; round++) {
      for (const member of staff) expect((await login(client, member.username!, DEFAULT_PASSWORD)).status).toBe(200);
    }
    expect(await spray(client, 2)).toEqual([401, 429]);
  });

  it("a flood from one address, dropped at once, does not delay a login from elsewhere", { timeout: 180_000 }, async () => {
    const user = await createUser(server.db);
    const quiet = await timedLogin(from("198.51.100.24"), user.username!);
    expect(quiet.status).toBe(200);

    await loginsDroppedAtOnce(server.url, 600, () => "198.51.100.25");
    const underFlood = await timedLogin(from("198.51.100.26"), user.username!);
    expect(underFlood.status).toBe(200);
    expect(underFlood.ms).toBeLessThan(Math.max(2_000, 5 * quiet.ms));
  });

  it("a flood from many addresses, dropped at once, does not delay a login from elsewhere", { timeout: 180_000 }, async () => {
    const user = await createUser(server.db);
    const quiet = await timedLogin(from("198.51.100.27"), user.username!);
    expect(quiet.status).toBe(200);

    const verifies = countVerifies();
    // 20 addresses, each within its 30 a minute: only the dropped connections tell them apart.
    await loginsDroppedAtOnce(server.url, 600, (i) => `198.18.0.${i % 20}`);
    const underFlood = await timedLogin(from("198.51.100.28"), user.username!);
    expect(underFlood.status).toBe(200);
    expect(underFlood.ms).toBeLessThan(Math.max(2_000, 5 * quiet.ms));
    // Hashed or being hashed, the real login included. On Postgres the server sees each client's
    // close while its request waits for the database, so next to none of the flood is. The
    // embedded database answers on the event loop itself: a request can reach an idle hashing
    // thread before its client's close is read, and only the bounded queue keeps the rest short.
    if (process.env.DATABASE_URL) {
      const hashed = verifies.mock.settledResults.filter((r) => r.type !== "rejected").length;
      expect(hashed).toBeLessThanOrEqual(5);
    }
  });

  it("answers 503 once the hashing queue is full, rather than letting it grow, and a 503 counts for nothing", { timeout: 120_000 }, async () => {
    const ipOf = (i: number) => `198.18.1.${i % 10}`;
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => login(from(ipOf(i)), `queued_${randomUUID()}`, "Queued-Guess")));
    const busy = responses.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]!.body.detail).toBe("Sign-in is busy, please try again in a moment.");
    expect(responses.filter((r) => r.status !== 503).every((r) => r.status === 401)).toBe(true);

    // The address that was refused most keeps every attempt its 503s did not check.
    const checked = new Map<string, number>();
    responses.forEach((r, i) => checked.set(ipOf(i), (checked.get(ipOf(i)) ?? 0) + (r.status === 401 ? 1 : 0)));
    const [ip, used] = [...checked].sort((a, b) => a[1] - b[1])[0]!;
    const left = MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE - used;
    expect(await spray(from(ip), left)).toEqual(Array(left).fill(401));
    expect(await spray(from(ip), 1)).toEqual([429]);
  });
});

describe("login attempts per account", () => {
  it("140 guesses at one account, 30 at a time from 14 addresses: exactly 100 are checked", { timeout: 120_000 }, async () => {
    const user = await createUser(server.db);
    // As many at once as the hashing pool takes without refusing any, so each guess is checked
    // or refused by the account limit alone.
    const pool = new Argon2Pool();
    const inFlight = Math.min(30, pool.size + pool.maxQueued);
    const verifies = countVerifies();
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        for (let i = next++; i < 140; i = next++) {
          statuses.push((await login(from(`198.18.2.${i % 14}`), user.username!, `Parallel-Guess-${i}`)).status);
        }
      }),
    );
    expect(verifies).toHaveBeenCalledTimes(MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR);
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(140 - MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR);
  });
});

describe("trusted browsers (device cookies)", () => {
  let smtp: TestSmtpServer;
  let mailed: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailed = await startTestServer({ env: { ...TRUST_PROXY, SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await mailed.close();
    await smtp.stop();
  });

  it("others' failures lock out untrusted browsers only; the owner is emailed once", { timeout: 120_000 }, async () => {
    const admin = await createUser(mailed.db, { is_admin: true, name: "Pat URGENT refund on hold", username: "firm_admin_pat" });
    const client = await createUser(mailed.db);
    const adminBrowser = from("203.0.113.200", mailed.url);
    expect((await signIn(adminBrowser, admin, "admin")).status).toBe(200);
    const otherAccountsBrowser = from("203.0.113.201", mailed.url);
    expect((await login(otherAccountsBrowser, client.username!, DEFAULT_PASSWORD)).status).toBe(200);

    for (let ip = 1; ip <= 10; ip++) {
      expect(await failTimes(from(`198.18.3.${ip}`, mailed.url), admin.username!, 10)).toEqual(Array(10).fill(401));
    }
    expect((await login(from("203.0.113.202", mailed.url), admin.username!, DEFAULT_PASSWORD, "admin")).status).toBe(429);
    // A browser trusted for another account is untrusted for this one.
    expect((await login(otherAccountsBrowser, admin.username!, DEFAULT_PASSWORD, "admin")).status).toBe(429);
    expect((await signIn(adminBrowser, admin, "admin")).status).toBe(200);
    expect((await adminBrowser.get("/api/admin/stats")).status).toBe(200);

    const [mail] = await smtp.waitForMessages(1);
    expect(mail!.to).toEqual([admin.email]);
    expect(mail!.text).toMatch(/^Hello,$/m);
    for (const chosen of [admin.name, admin.username!, "URGENT"]) {
      expect(mail!.text).not.toContain(chosen);
      expect(mail!.html).not.toContain(chosen);
    }
    // Once per lock, however many more attempts it refuses.
    expect((await login(from("203.0.113.203", mailed.url), admin.email, DEFAULT_PASSWORD, "admin")).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(smtp.messages).toHaveLength(1);
  });

  it("a trusted browser's own wrong guesses lock that browser only", async () => {
    const user = await createUser(mailed.db);
    const browser = from("203.0.113.210", mailed.url);
    expect((await login(browser, user.username!, DEFAULT_PASSWORD)).status).toBe(200);
    expect(await failTimes(browser, user.username!, MAX_CONSECUTIVE_LOGIN_FAILURES)).toEqual(Array(10).fill(401));
    expect((await login(browser, user.username!, DEFAULT_PASSWORD)).status).toBe(429);
    expect((await login(from("203.0.113.210", mailed.url), user.username!, DEFAULT_PASSWORD)).status).toBe(200);
  });
});

describe("the limiter's table", () => {
  it("keeps no row forever: every row expires and expired rows are swept", async () => {
    for (let ip = 0; ip < 5; ip++) await spray(from(`198.18.4.${ip}`), 10);
    const { rows } = await sql<{ forever: string; total: string }>`
      select count(*) filter (where expire is null) as forever, count(*) as total from rate_limits`.execute(server.db);
    expect(Number(rows[0]!.total)).toBeGreaterThanOrEqual(50);
    expect(Number(rows[0]!.forever)).toBe(0);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 25 * 60 * 60 * 1000);
    await deleteExpiredRateLimits(server.db);
    const left = await sql<{ n: string }>`select count(*) as n from rate_limits`.execute(server.db);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});

describe("forgot-password", () => {
  it("limits requests per email", async () => {
    const user = await createUser(server.db);
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR; i++) {
      statuses.push((await from(`198.51.100.${100 + i}`).post("/api/auth/forgot-password", { email: user.email })).status);
    }
    expect(statuses).toEqual([...Array(MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR).fill(200), 429]);
    const again = await from("198.51.100.200").post("/api/auth/forgot-password", { email: user.email.toUpperCase() });
    expect(again.status).toBe(429);
    expect(again.body.detail).toMatch(/^Too many password reset requests\. Please try again in \d+ minutes?\.$/);
  });

  it("limits requests per address", async () => {
    const client = from("198.51.100.201");
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_RESET_REQUESTS_PER_IP_PER_HOUR; i++) {
      statuses.push((await client.post("/api/auth/forgot-password", { email: `someone${i}@example.com` })).status);
    }
    expect(statuses).toEqual([...Array(MAX_RESET_REQUESTS_PER_IP_PER_HOUR).fill(200), 429]);
  });
});

/**
 * One database opened more than once. On Postgres each open is a new connection pool (a real
 * restart); the embedded database lives in a directory that only one process handle may hold,
 * so a restart reopens the directory and two concurrent instances share the one handle.
 */
async function sharedDatabase() {
  const quiet = createLogger("silent");
  if (process.env.DATABASE_URL) {
    const owner = await createTestDatabase();
    return {
      open: async (): Promise<TestDatabase> => {
        const handle = await openDatabase({ databaseUrl: owner.url, dataDir: "memory://", logger: quiet });
        return { ...handle, url: owner.url, name: owner.name };
      },
      dispose: () => owner.close(),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-ratelimit-"));
  let handle: TestDatabase | null = null;
  let users = 0;
  return {
    open: async (): Promise<TestDatabase> => {
      if (!handle) {
        const opened = await openDatabase({ dataDir: dir, logger: quiet });
        await migrateToLatest(opened.db, quiet);
        handle = { ...opened, url: undefined, name: "embedded" };
      }
      const shared = handle;
      users++;
      return {
        ...shared,
        close: async () => {
          if (--users === 0) {
            handle = null;
            await shared.close();
          }
        },
      };
    },
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

describe("public writes", () => {
  async function count(table: "users" | "consultation_requests"): Promise<number> {
    const row = await server.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it("limits registrations per address (each costs an argon2 hash and a row)", async () => {
    const register = (ip: string, i: number) =>
      from(ip).post("/api/auth/register", {
        username: `limited_${i}`,
        email: `limited_${i}@example.com`,
        name: "Limited",
        password: "Velvet-Compass-Orchard-7",
      });
    const statuses: number[] = [];
    for (let i = 0; i < MAX_REGISTRATIONS_PER_IP_PER_HOUR; i++) statuses.push((await register("198.51.100.150", i)).status);
    expect(statuses).toEqual(Array(MAX_REGISTRATIONS_PER_IP_PER_HOUR).fill(200));

    const usersBefore = await count("users");
    const refused = await register("198.51.100.150", 100);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe("Too many registrations. Please try again in 60 minutes.");
    expect(await count("users")).toBe(usersBefore);
    expect((await register("198.51.100.151", 101)).status).toBe(200);
  });

  it("counts registrations of one IPv6 /64 together: its host picks any of 2^64 addresses", async () => {
    const register = (ip: string, i: number) =>
      from(ip).post("/api/auth/register", { username: `six_${i}`, email: `six_${i}@example.com`, name: "Six", password: "Velvet-Compass-Orchard-7" });
    for (let i = 0; i < MAX_REGISTRATIONS_PER_IP_PER_HOUR; i++) expect((await register(`2001:db8:7:1::${(i + 1).toString(16)}`, i)).status).toBe(200);
    expect((await register("2001:db8:7:1:ffff:1:2:3", 100)).status).toBe(429);
    expect((await register("2001:db8:7:2::1", 101)).status).toBe(200);
  });

  it("limits consultation requests per address (each writes a row and emails the firm)", async () => {
    const consult = (ip: string) =>
      from(ip).post("/api/consultation/request", { name: "Eager Prospect", email: "eager@example.com", phone: "555-123-4567" });
    const statuses: number[] = [];
    for (let i = 0; i < MAX_CONSULTATION_REQUESTS_PER_IP_PER_HOUR; i++) statuses.push((await consult("198.51.100.160")).status);
    expect(statuses).toEqual(Array(MAX_CONSULTATION_REQUESTS_PER_IP_PER_HOUR).fill(200));

    const requestsBefore = await count("consultation_requests");
    const refused = await consult("198.51.100.160");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe("Too many consultation requests. Please try again in 60 minutes.");
    expect(await count("consultation_requests")).toBe(requestsBefore);
    expect((await consult("198.51.100.161")).status).toBe(200);
  });
});

describe("TRUST_PROXY", () => {
  it("is a number of proxies; true is refused rather than trusting whatever the client writes", () => {
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "-1" })).toThrow(/TRUST_PROXY/);
  });

  it("unset, X-Forwarded-For is ignored: a header cannot give a fresh counter", { timeout: 120_000 }, async () => {
    const direct = await startTestServer();
    try {
      const user = await createUser(direct.db);
      for (let i = 0; i < MAX_CONSECUTIVE_LOGIN_FAILURES; i++) {
        expect((await login(from(`198.51.100.${80 + i}`, direct.url), user.username!, `Wrong-${i}`)).status).toBe(401);
      }
      expect((await login(from("198.51.100.99", direct.url), user.username!, DEFAULT_PASSWORD)).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

describe("limits live in the database", () => {
  it("hold across a server restart", async () => {
    const shared = await sharedDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-restart-"));
    try {
      const first = await startTestServer({ env: TRUST_PROXY, database: await shared.open(), dataDir });
      const user = await createUser(first.db);
      expect(await failTimes(from("198.51.100.50", first.url), user.username!, 10)).toEqual(Array(10).fill(401));
      await first.close();

      const second = await startTestServer({ env: TRUST_PROXY, database: await shared.open(), dataDir });
      try {
        const res = await login(from("198.51.100.50", second.url), user.username!, DEFAULT_PASSWORD);
        expect(res.status).toBe(429);
        expect(res.body.detail).toMatch(/try again in 15 minutes/);
      } finally {
        await second.close();
      }
    } finally {
      await shared.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("hold across two server instances on the same database", async () => {
    const shared = await sharedDatabase();
    const a = await startTestServer({ env: TRUST_PROXY, database: await shared.open() });
    const b = await startTestServer({ env: TRUST_PROXY, database: await shared.open() });
    try {
      const user = await createUser(a.db);
      for (let i = 0; i < 5; i++) {
        expect((await login(from("198.51.100.60", a.url), user.username!, `Wrong-A-${i}`)).status).toBe(401);
        expect((await login(from("198.51.100.60", b.url), user.username!, `Wrong-B-${i}`)).status).toBe(401);
      }
      expect((await login(from("198.51.100.60", a.url), user.username!, DEFAULT_PASSWORD)).status).toBe(429);
      expect((await login(from("198.51.100.60", b.url), user.username!, DEFAULT_PASSWORD)).status).toBe(429);
    } finally {
      await a.close();
      await b.close();
      await shared.dispose();
    }
  });
});
