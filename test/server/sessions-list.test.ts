// The caller's sessions (issue 20): listed with where they came from, ended one at a time or all
// but the current one; ids that cannot sign anyone in; someone else's id answers like a missing one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLIENT_TOUCH_MS, hashToken } from "../../server/auth/session.ts";
import { createUser, DEFAULT_PASSWORD, loginClient, nextSecondFactorCode, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "1" } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.clock.set(new Date());
});

async function signedIn(user: UserFixture, from: { ip: string; userAgent: string }): Promise<ApiClient> {
  const client = new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": from.ip, "User-Agent": from.userAgent });
  const res = await client.post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD });
  expect(res.body).toMatchObject({ success: true });
  return client;
}

describe("GET /api/auth/sessions", () => {
  it("lists the caller's own sessions with when, where and which browser, marking this one", async () => {
    const user = await createUser(server.db);
    const laptop = await signedIn(user, { ip: "203.0.113.10", userAgent: CHROME });
    server.clock.advance(60_000);
    await signedIn(user, { ip: "203.0.113.11", userAgent: SAFARI_IPHONE });
    await loginClient(server.url, await createUser(server.db));

    const res = await laptop.get("/api/auth/sessions");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    const [phone, self] = [...res.body].sort((a, b) => Number(a.current) - Number(b.current));
    expect(self).toMatchObject({ current: true, kind: "client", ip: "203.0.113.10", browser: "Chrome 131 on Windows" });
    expect(phone).toMatchObject({ current: false, ip: "203.0.113.11", browser: "Safari 17 on iOS" });
    expect(new Date(phone.created_at).getTime()).toBeGreaterThan(new Date(self.created_at).getTime());
    expect(new Date(self.last_used_at).getTime()).toBeGreaterThanOrEqual(new Date(self.created_at).getTime());
  });

  it("names no browser it does not know, whatever the header says", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user, { ip: "203.0.113.12", userAgent: "URGENT refund on hold/1.0 call 555-0100" });
    const [session] = (await client.get("/api/auth/sessions")).body;
    expect(session.browser).toBe("Unknown browser");
  });

  it("shows ids that are neither the token nor its hash, and sign nobody in", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user, { ip: "203.0.113.13", userAgent: CHROME });
    const token = client.cookies.get("session")!;
    const [session] = (await client.get("/api/auth/sessions")).body;
    expect(session.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(session.id).not.toBe(token);
    expect(session.id).not.toBe(hashToken(token));
    for (const forged of [session.id, hashToken(token)]) {
      const attacker = new ApiClient(server.url);
      attacker.cookies.set("session", forged);
      expect((await attacker.get("/api/auth/me")).status).toBe(401);
    }
  });

  it("writes last use at most every few minutes, not on every request", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user, { ip: "203.0.113.14", userAgent: CHROME });
    const lastUsed = async () =>
      (
        await server.db
          .selectFrom("sessions")
          .select("last_used_at")
          .where("id", "=", hashToken(client.cookies.get("session")!))
          .executeTakeFirstOrThrow()
      ).last_used_at;
    const first = await lastUsed();
    server.clock.advance(CLIENT_TOUCH_MS - 60_000);
    await client.get("/api/auth/me");
    expect(await lastUsed()).toEqual(first);
    server.clock.advance(2 * 60_000);
    await client.get("/api/auth/me");
    expect((await lastUsed()).getTime()).toBeGreaterThan(first.getTime());
  });
});

describe("ending sessions", () => {
  it("signs out one session by its id; another user's id answers like a missing one", async () => {
    const user = await createUser(server.db);
    const stranger = await createUser(server.db);
    const mine = await signedIn(user, { ip: "203.0.113.20", userAgent: CHROME });
    const other = await signedIn(user, { ip: "203.0.113.21", userAgent: SAFARI_IPHONE });
    const theirs = await signedIn(stranger, { ip: "203.0.113.22", userAgent: CHROME });
    const [theirSession] = (await theirs.get("/api/auth/sessions")).body;

    const foreign = await mine.delete(`/api/auth/sessions/${theirSession.id}`);
    const missing = await mine.delete(`/api/auth/sessions/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(foreign).toMatchObject({ status: missing.status, body: missing.body });
    expect((await theirs.get("/api/auth/me")).status).toBe(200);

    const otherSession = (await mine.get("/api/auth/sessions")).body.find((s: { current: boolean }) => !s.current);
    expect((await mine.delete(`/api/auth/sessions/${otherSession.id}`)).body).toEqual({ success: true });
    expect((await other.get("/api/auth/me")).status).toBe(401);
    expect((await mine.get("/api/auth/me")).status).toBe(200);
    expect((await mine.delete(`/api/auth/sessions/${otherSession.id}`)).status).toBe(404);
  });

  it("signs out the current session too, when asked by its id", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user, { ip: "203.0.113.23", userAgent: CHROME });
    const [self] = (await client.get("/api/auth/sessions")).body;
    expect((await client.delete(`/api/auth/sessions/${self.id}`)).status).toBe(200);
    expect(client.cookies.has("session")).toBe(false);
    expect((await client.get("/api/auth/me")).status).toBe(401);
  });

  it("revoke-others ends every other session, keeps this one", async () => {
    const user = await createUser(server.db);
    const mine = await signedIn(user, { ip: "203.0.113.30", userAgent: CHROME });
    const others = [
      await signedIn(user, { ip: "203.0.113.31", userAgent: CHROME }),
      await signedIn(user, { ip: "203.0.113.32", userAgent: SAFARI_IPHONE }),
    ];
    const bystander = await loginClient(server.url, await createUser(server.db));

    const res = await mine.post("/api/auth/sessions/revoke-others");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, ended: 2 });
    for (const other of others) expect((await other.get("/api/auth/me")).status).toBe(401);
    expect((await mine.get("/api/auth/me")).status).toBe(200);
    expect((await bystander.get("/api/auth/me")).status).toBe(200);
    expect((await mine.get("/api/auth/sessions")).body).toHaveLength(1);
  });

  it("revoke-others also voids a sign-in waiting for its second factor", async () => {
    const user = await createUser(server.db, { two_factor: true });
    const mine = await loginClient(server.url, user);
    const elsewhere = new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": "203.0.113.40" });
    const login = await elsewhere.post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD });
    expect(login.body.two_factor_required).toBe(true);
    expect((await mine.post("/api/auth/sessions/revoke-others")).status).toBe(200);
    const second = await elsewhere.post("/api/auth/login/2fa", {
      challenge: login.body.challenge,
      code: nextSecondFactorCode(user, server.clock.now()),
    });
    expect(second.status).toBe(401);
    expect((await elsewhere.get("/api/auth/me")).status).toBe(401);
  });
});
