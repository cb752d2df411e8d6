// Two-factor sign-in (issue 20): enrolment, the login challenge, codes accepted once, backup codes,
// the lockout shared with passwords, admins who must enrol, and the firm's requirement for clients.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_CONSECUTIVE_LOGIN_FAILURES } from "../../server/auth/rate-limit.ts";
import { createUser, DEFAULT_PASSWORD, loginClient, nextSecondFactorCode, type UserFixture } from "../helpers/factories.ts";
import { ApiClient, type Json } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const STEP_MS = 30_000;
let smtp: TestSmtpServer;
let server: TestServer;
let ipCounter = 0;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // One proxy in front, so each test signs in from an address of its own (the per-address limits count across tests).
  server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  server.clock.set(new Date());
});

/** A browser of its own (cookies) at an address of its own. */
function browser(): ApiClient {
  ipCounter++;
  return new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": `198.51.100.${ipCounter}` });
}

const step = () => Math.floor(server.clock.now().getTime() / STEP_MS);
const codeAt = (secret: string, at: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(at), 6);

/** A client who turns two-factor sign-in on in Settings; answers the secret and the backup codes. */
async function enrolled(): Promise<{ user: UserFixture; secret: string; backupCodes: string[] }> {
  const user = await createUser(server.db);
  const client = await loginClient(server.url, user);
  const setup = await client.post("/api/auth/2fa/setup");
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  const enable = await client.post("/api/auth/2fa/enable", { code: codeAt(secret, step()) });
  expect(enable.status).toBe(200);
  return { user, secret, backupCodes: enable.body.backup_codes };
}

/** A client signed in with the password and then `code`. */
async function signedInWith(user: UserFixture, code: string): Promise<ApiClient> {
  const client = browser();
  const { challenge } = await passwordStep(client, user);
  const res = await client.post("/api/auth/login/2fa", { challenge, code });
  expect(res.status).toBe(200);
  return client;
}

async function passwordStep(client: ApiClient, user: { username: string | null }, path = "/api/auth/login"): Promise<Json> {
  const res = await client.post(path, { username: user.username, password: DEFAULT_PASSWORD });
  expect(res.status).toBe(200);
  return res.body;
}

describe("enrolment in Settings", () => {
  it("answers a key as text, an otpauth URL and a QR code, turns on with a code, and answers 10 backup codes once", async () => {
    const user = await createUser(server.db, { name: "Dana Ledger" });
    const client = await loginClient(server.url, user);
    const setup = await client.post("/api/auth/2fa/setup");
    expect(setup.status).toBe(200);
    const { secret, otpauth_url, qr_svg } = setup.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(otpauth_url).searchParams.get("secret")).toBe(secret);
    expect(qr_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

    expect((await client.get("/api/auth/account")).body.two_factor).toEqual({
      enabled: false,
      enabled_at: null,
      backup_codes_left: 0,
      required: false,
    });
    const wrong = await client.post("/api/auth/2fa/enable", { code: codeAt(secret, step() + 5) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: "Invalid authentication code" });

    const enable = await client.post("/api/auth/2fa/enable", { code: codeAt(secret, step()) });
    expect(enable.status).toBe(200);
    expect(enable.body.backup_codes).toHaveLength(10);
    expect(new Set(enable.body.backup_codes).size).toBe(10);
    for (const code of enable.body.backup_codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const account = (await client.get("/api/auth/account")).body;
    expect(account.two_factor).toMatchObject({ enabled: true, backup_codes_left: 10, required: false });

    // Shown once: setting up again is refused, and nothing stores or logs the key or the codes readably.
    expect((await client.post("/api/auth/2fa/setup")).status).toBe(409);
    const stored = await server.db.selectFrom("totp_credentials").select("secret").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(stored.secret).toBe(`plain:${secret}`);
    const hashes = await server.db.selectFrom("backup_codes").select("code_hash").where("user_id", "=", user.id).execute();
    expect(hashes.map((h) => h.code_hash).join()).not.toContain(enable.body.backup_codes[0].replace("-", ""));
    for (const line of server.logs) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain(enable.body.backup_codes[0]);
    }

    const mail = await smtp.waitForMail(user.email, /Two-factor sign-in is on/);
    expect(mail.text).toMatch(/^Hello,$/m);
    expect(mail.text).not.toContain(user.name);
  });

  it("stores the key encrypted when TOTP_ENCRYPTION_KEY is set, and still signs in with it", async () => {
    const sealed = await startTestServer({ env: { TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") } });
    try {
      const user = await createUser(sealed.db);
      const client = await loginClient(sealed.url, user);
      const { secret } = (await client.post("/api/auth/2fa/setup")).body;
      expect((await client.post("/api/auth/2fa/enable", { code: codeAt(secret, step() - 1) })).status).toBe(200);
      const stored = await sealed.db.selectFrom("totp_credentials").select("secret").where("user_id", "=", user.id).executeTakeFirstOrThrow();
      expect(stored.secret).toMatch(/^v1:/);
      expect(stored.secret).not.toContain(secret);
      const again = new ApiClient(sealed.url);
      const login = await again.post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD });
      expect((await again.post("/api/auth/login/2fa", { challenge: login.body.challenge, code: codeAt(secret, step()) })).status).toBe(200);
    } finally {
      await sealed.close();
    }
  });
});

describe("signing in with a second factor", () => {
  it("answers a challenge instead of a session, and signs in with a code", async () => {
    const { user, secret } = await enrolled();
    const client = browser();
    const login = await client.post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ two_factor_required: true, challenge: expect.stringMatching(/^[a-z2-7]{32}$/) });
    expect(login.headers.getSetCookie().join()).not.toMatch(/(^|, )session=/);
    expect((await client.get("/api/auth/me")).status).toBe(401);

    const wrong = await client.post("/api/auth/login/2fa", { challenge: login.body.challenge, code: codeAt(secret, step() + 3) });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: "Invalid authentication code" });
    const second = await client.post("/api/auth/login/2fa", { challenge: login.body.challenge, code: codeAt(secret, step() + 1) });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ success: true, user: { id: user.id } });
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });

  it("accepts one step of drift either way, not two", async () => {
    const { user, secret } = await enrolled();
    // Past the step enrolment used, so that only the window decides.
    server.clock.advance(3 * STEP_MS);
    const now = step();
    for (const [offset, status] of [
      [2, 401],
      [-2, 401],
      [-1, 200],
      [1, 200],
    ] as const) {
      const client = browser();
      const { challenge } = await passwordStep(client, user);
      expect({ offset, status: (await client.post("/api/auth/login/2fa", { challenge, code: codeAt(secret, now + offset) })).status }).toEqual({
        offset,
        status,
      });
    }
  });

  it("accepts each code once: a replayed code is refused, even in its window", async () => {
    const { user, secret } = await enrolled();
    const code = codeAt(secret, step() + 1);
    const first = browser();
    const firstLogin = await passwordStep(first, user);
    expect((await first.post("/api/auth/login/2fa", { challenge: firstLogin.challenge, code })).status).toBe(200);
    const second = browser();
    const secondLogin = await passwordStep(second, user);
    const replayed = await second.post("/api/auth/login/2fa", { challenge: secondLogin.challenge, code });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toEqual({ detail: "Invalid authentication code" });
    // And an earlier step than the one used, though still in the window, is refused too.
    expect((await second.post("/api/auth/login/2fa", { challenge: secondLogin.challenge, code: codeAt(secret, step()) })).status).toBe(401);
  });

  it("refuses two requests with one code at once: one signs in", async () => {
    const { user, secret } = await enrolled();
    const code = codeAt(secret, step() + 1);
    const clients = [browser(), browser(), browser()];
    const challenges = await Promise.all(clients.map((c) => passwordStep(c, user)));
    const statuses = await Promise.all(clients.map((c, i) => c.post("/api/auth/login/2fa", { challenge: challenges[i].challenge, code })));
    expect(statuses.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it("lets the challenge live 5 minutes, and only once", async () => {
    const { user, secret } = await enrolled();
    const client = browser();
    const { challenge } = await passwordStep(client, user);
    server.clock.advance(5 * 60 * 1000 + 1000);
    const late = await client.post("/api/auth/login/2fa", { challenge, code: codeAt(secret, step()) });
    expect(late.status).toBe(401);
    expect(late.body).toEqual({ detail: "This sign-in has expired. Please sign in again." });

    server.clock.set(new Date());
    const fresh = await passwordStep(client, user);
    expect((await client.post("/api/auth/login/2fa", { challenge: fresh.challenge, code: codeAt(secret, step() + 1) })).status).toBe(200);
    const reused = await browser().post("/api/auth/login/2fa", { challenge: fresh.challenge, code: codeAt(secret, step()) });
    expect(reused.status).toBe(401);
    expect(reused.body.detail).toBe("This sign-in has expired. Please sign in again.");
  });

  it("signs in with a backup code once, however it is typed; a second use is refused", async () => {
    const { user, backupCodes } = await enrolled();
    const code = backupCodes[3]!;
    const client = browser();
    const { challenge } = await passwordStep(client, user);
    const typed = ` ${code.toUpperCase().replace("-", " ")} `;
    expect((await client.post("/api/auth/login/2fa", { challenge, code: typed })).status).toBe(200);
    const again = browser();
    const second = await passwordStep(again, user);
    expect((await again.post("/api/auth/login/2fa", { challenge: second.challenge, code })).status).toBe(401);
    const owner = await signedInWith(user, backupCodes[4]!);
    expect((await owner.get("/api/auth/account")).body.two_factor.backup_codes_left).toBe(8);
  });

  it("counts wrong codes toward the same lockout as wrong passwords; a right password does not clear them", async () => {
    const { user, secret } = await enrolled();
    const client = browser();
    for (let i = 0; i < 4; i++) {
      expect((await client.post("/api/auth/login", { username: user.username, password: "Wrong-Password-1" })).status).toBe(401);
    }
    const { challenge } = await passwordStep(client, user);
    for (let i = 0; i < 3; i++) expect((await client.post("/api/auth/login/2fa", { challenge, code: "000000" })).status).toBe(401);
    // Signing in with the password again starts no fresh count.
    const again = await passwordStep(client, user);
    for (let i = 0; i < MAX_CONSECUTIVE_LOGIN_FAILURES - 7; i++) {
      expect((await client.post("/api/auth/login/2fa", { challenge: again.challenge, code: "000000" })).status).toBe(401);
    }
    const locked = await client.post("/api/auth/login/2fa", { challenge: again.challenge, code: codeAt(secret, step()) });
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toMatch(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/);
    expect((await client.post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD })).status).toBe(429);
  });
});

describe("backup codes and turning it off", () => {
  it("regenerates backup codes with a code: the old ones stop working", async () => {
    const { user, secret, backupCodes } = await enrolled();
    const client = await signedInWith(user, backupCodes[0]!);
    expect((await client.post("/api/auth/2fa/backup-codes", { code: "000000" })).status).toBe(400);
    const fresh = await client.post("/api/auth/2fa/backup-codes", { code: codeAt(secret, step() + 1) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.backup_codes).toHaveLength(10);
    const other = browser();
    const { challenge } = await passwordStep(other, user);
    expect((await other.post("/api/auth/login/2fa", { challenge, code: backupCodes[1] })).status).toBe(401);
    expect((await other.post("/api/auth/login/2fa", { challenge, code: fresh.body.backup_codes[0] })).status).toBe(200);
  });

  it("turns off with the password and a code, and mails the owner", async () => {
    const { user, secret, backupCodes } = await enrolled();
    const client = await signedInWith(user, backupCodes[0]!);
    const noPassword = await client.post("/api/auth/2fa/disable", { code: codeAt(secret, step()) });
    expect(noPassword.body).toEqual({ detail: "Please enter your current password" });
    const wrongPassword = await client.post("/api/auth/2fa/disable", { password: "Wrong-Password-1", code: codeAt(secret, step()) });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body).toEqual({ detail: "Current password is incorrect" });
    expect((await client.post("/api/auth/2fa/disable", { password: DEFAULT_PASSWORD, code: "123456" })).body).toEqual({
      detail: "Invalid authentication code",
    });
    const off = await client.post("/api/auth/2fa/disable", { password: DEFAULT_PASSWORD, code: codeAt(secret, step() + 1) });
    expect(off.status).toBe(200);
    expect((await client.get("/api/auth/account")).body.two_factor.enabled).toBe(false);
    const login = await browser().post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD });
    expect(login.body).toMatchObject({ success: true });
    await smtp.waitForMail(user.email, /Two-factor sign-in was turned off/);
  });

  it("is never turned off for an admin", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const client = await loginClient(server.url, admin, "admin");
    const res = await client.post("/api/auth/2fa/disable", { password: DEFAULT_PASSWORD, code: nextSecondFactorCode(admin, server.clock.now()) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Admin accounts must keep two-factor sign-in" });
    expect((await client.get("/api/auth/account")).body.two_factor).toMatchObject({ enabled: true, required: true });
  });
});

describe("admins must have a second factor", () => {
  it("takes an admin without one to enrolment: no admin session or data until it is on", async () => {
    const admin = await createUser(server.db, { is_admin: true, two_factor: false });
    const client = browser();
    const login = await passwordStep(client, admin, "/api/admin/login");
    expect(login).toEqual({ two_factor_setup_required: true, challenge: expect.any(String) });
    expect((await client.get("/api/admin/stats")).status).toBe(401);
    expect((await client.get("/api/auth/me")).status).toBe(401);
    // The enrolment challenge is no second step of a sign-in.
    expect((await client.post("/api/auth/login/2fa", { challenge: login.challenge, code: "123456" })).status).toBe(401);

    const setup = await client.post("/api/auth/login/2fa/setup", { challenge: login.challenge });
    expect(setup.status).toBe(200);
    expect((await client.post("/api/auth/login/2fa/enable", { challenge: login.challenge, code: "000000" })).status).toBe(400);
    expect((await client.get("/api/admin/stats")).status).toBe(401);
    const enabled = await client.post("/api/auth/login/2fa/enable", { challenge: login.challenge, code: codeAt(setup.body.secret, step()) });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ success: true, user: { id: admin.id, is_admin: true } });
    expect(enabled.body.backup_codes).toHaveLength(10);
    expect(enabled.headers.getSetCookie().join()).toMatch(/Max-Age=43200/);
    expect((await client.get("/api/admin/stats")).status).toBe(200);
    // Spent: the challenge enrols once.
    expect((await client.post("/api/auth/login/2fa/setup", { challenge: login.challenge })).status).toBe(401);

    // From now on the admin signs in with a code.
    const next = browser();
    const again = await passwordStep(next, admin, "/api/admin/login");
    expect(again.two_factor_required).toBe(true);
    expect((await next.post("/api/auth/login/2fa", { challenge: again.challenge, code: codeAt(setup.body.secret, step() + 1) })).status).toBe(200);
    expect((await next.get("/api/admin/stats")).status).toBe(200);
  });

  it("takes clients to enrolment at their next sign-in while the firm requires it", async () => {
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const client = await createUser(server.db);
    const signedInBefore = await loginClient(server.url, client);
    expect((await admin.get("/api/admin/security-settings")).body).toEqual({ require_client_two_factor: false });
    try {
      expect((await admin.put("/api/admin/security-settings", { require_client_two_factor: true })).body).toEqual({
        require_client_two_factor: true,
      });
      // A session from before goes on.
      expect((await signedInBefore.get("/api/auth/me")).status).toBe(200);
      expect((await signedInBefore.get("/api/auth/account")).body.two_factor.required).toBe(true);
      const next = browser();
      const login = await passwordStep(next, client);
      expect(login.two_factor_setup_required).toBe(true);
      const setup = await next.post("/api/auth/login/2fa/setup", { challenge: login.challenge });
      const enabled = await next.post("/api/auth/login/2fa/enable", { challenge: login.challenge, code: codeAt(setup.body.secret, step()) });
      expect(enabled.status).toBe(200);
      expect((await next.get("/api/auth/me")).status).toBe(200);
      const off = await next.post("/api/auth/2fa/disable", { password: DEFAULT_PASSWORD, code: codeAt(setup.body.secret, step() + 1) });
      expect(off.body).toEqual({ detail: "The firm requires two-factor sign-in for every client" });
    } finally {
      await admin.put("/api/admin/security-settings", { require_client_two_factor: false });
    }
    expect((await signedInBefore.put("/api/admin/security-settings", { require_client_two_factor: true })).status).toBe(403);
  });
});

describe("mail about sign-ins", () => {
  it("tells the owner of a sign-in from a new browser and address, not of the first or a known one", async () => {
    const user = await createUser(server.db);
    const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const from = (ip: string, userAgent: string) => new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": ip, "User-Agent": userAgent });
    await passwordStep(from("203.0.113.7", "curl/8.0"), user);
    await passwordStep(from("203.0.113.7", "curl/8.0"), user);
    await passwordStep(from("203.0.113.99", chrome), user);
    const mail = await smtp.waitForMail(user.email, /New sign-in/);
    expect(mail.text).toContain("Browser: Chrome on Windows");
    expect(mail.text).toContain("Address: 203.0.113.99");
    await passwordStep(from("203.0.113.99", chrome.replace("131", "132")), user);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job
      where name in ('email', 'email-now') and data->>'kind' = 'new-sign-in' and data->>'userId' = ${user.id}`.execute(server.db);
    expect(rows[0]!.n).toBe(1);
  });
});
