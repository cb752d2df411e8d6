import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../server/auth/session.ts";
import { createCaller } from "../../server/domains/_app.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import type { SignedIn } from "../../server/domains/auth/schemas.ts";
import { createUser, DEFAULT_PASSWORD, loginClient, nextSecondFactorCode } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let anon: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  anon = new ApiClient(server.url);
});
afterAll(() => server.close());

const registration = (over: Record<string, unknown> = {}) => ({
  username: `user${Math.random().toString(36).slice(2, 8)}`,
  email: `u${Math.random().toString(36).slice(2, 8)}@example.com`,
  name: "Dana Scully",
  password: "Quiet-Orchard-77",
  ...over,
});

describe("register", () => {
  it("creates an account that can log in", async () => {
    const input = registration();
    const res = await anon.post("/api/auth/register", input);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const login = await new ApiClient(server.url).post("/api/auth/login", { username: input.username, password: input.password });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({
      username: input.username,
      email: input.email,
      name: "Dana Scully",
      is_admin: false,
      auth_provider: "local",
    });
  });

  it.each([
    ["username", ""],
    ["email", ""],
    ["name", "   "],
    ["password", ""],
  ])("refuses a missing %s with the spec's message", async (field, value) => {
    const res = await anon.post("/api/auth/register", registration({ [field]: value }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "Please fill in all fields" });
  });

  it("refuses a missing field entirely", async () => {
    const { password: _p, ...rest } = registration();
    const res = await anon.post("/api/auth/register", rest);
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe("Please fill in all fields");
  });

  it("refuses a password shorter than 6 characters", async () => {
    const res = await anon.post("/api/auth/register", registration({ password: "a1b2c" }));
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe("Password must be at least 6 characters long");
  });

  it("refuses a common password", async () => {
    const res = await anon.post("/api/auth/register", registration({ password: "password1" }));
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/too common/);
  });

  it("refuses a malformed username and email", async () => {
    expect((await anon.post("/api/auth/register", registration({ username: "a b" }))).status).toBe(422);
    expect((await anon.post("/api/auth/register", registration({ email: "not-an-email" }))).body.detail).toBe("Please enter a valid email address");
  });

  it("refuses a taken username or email, ignoring case", async () => {
    const first = registration();
    expect((await anon.post("/api/auth/register", first)).status).toBe(200);
    const sameName = await anon.post("/api/auth/register", registration({ username: first.username.toUpperCase() }));
    expect(sameName.status).toBe(409);
    expect(sameName.body.detail).toBe("Username already exists");
    const sameEmail = await anon.post("/api/auth/register", registration({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.detail).toBe("Email already registered");
  });

  it("stores an argon2id hash, never the password", async () => {
    const input = registration();
    await anon.post("/api/auth/register", input);
    const row = await server.db.selectFrom("users").select("password_hash").where("username", "=", input.username).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain(input.password);
  });
});

describe("login, me, logout", () => {
  it("logs in with a cookie, answers me, and logs out for real", async () => {
    const user = await createUser(server.db);
    const client = new ApiClient(server.url);
    const login = await client.post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD });
    expect(login.status).toBe(200);
    // The specification's login answer: success, session_token, user; the cookie holds the same token.
    expect(login.body).toMatchObject({
      success: true,
      session_token: expect.stringMatching(/^[a-z2-7]{32}$/),
      user: { id: user.id, name: user.name },
    });
    expect(JSON.stringify(login.body)).not.toContain("password");
    const setCookie = login.headers.getSetCookie().join("\n");
    const token = /session=([a-z2-7]{32})/.exec(setCookie)?.[1];
    expect(token).toBe(login.body.session_token);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=604800/);

    const me = await client.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ ...login.body.user });
    expect(me.body).not.toHaveProperty("password_hash");

    const stored = await server.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(stored.map((s) => s.id)).toEqual([hashToken(token!)]);

    const logout = await client.post("/api/auth/logout");
    expect(logout.status).toBe(200);
    expect((await client.get("/api/auth/me")).status).toBe(401);
    const replay = new ApiClient(server.url);
    replay.bearer = token!;
    expect((await replay.get("/api/auth/me")).status).toBe(401);
    expect(await server.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("answers 401 with a detail when not logged in", async () => {
    const res = await anon.get("/api/auth/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "Not authenticated" });
  });

  it("says the same for an unknown user and a wrong password", async () => {
    const user = await createUser(server.db);
    const wrong = await anon.post("/api/auth/login", { username: user.username, password: "Wrong-Password-1" });
    const unknown = await anon.post("/api/auth/login", { username: "nobody_here", password: "Wrong-Password-1" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ detail: "Invalid username or password" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("answers the session token without being asked (return_token changes nothing), and accepts it as a Bearer token", async () => {
    const user = await createUser(server.db);
    for (const extra of [{}, { return_token: true }, { return_token: false }]) {
      const login = await new ApiClient(server.url, {}).post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD, ...extra });
      expect(login.status, JSON.stringify(extra)).toBe(200);
      expect(login.body.session_token).toMatch(/^[a-z2-7]{32}$/);
      const bearer = new ApiClient(server.url, {});
      bearer.bearer = login.body.session_token;
      const me = await bearer.get("/api/auth/me");
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
    }
  });

  it("keeps the token out of the React app's own sign-in (/trpc), even when asked for it", async () => {
    const user = await createUser(server.db);
    for (const extra of [{}, { return_token: true }]) {
      const browser = new ApiClient(server.url);
      const res = await browser.post("/trpc/auth.login", { json: { username: user.username, password: DEFAULT_PASSWORD, ...extra } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.data.json).toMatchObject({ success: true, user: { id: user.id } });
      expect(res.body.result.data.json).not.toHaveProperty("session_token");
      expect(res.text).not.toContain(browser.cookies.get("session")!);
      expect((await browser.get("/api/auth/me")).status).toBe(200);
    }
  });

  it("refuses the login form with missing fields", async () => {
    const res = await anon.post("/api/auth/login", { username: "someone" });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe("Please fill in all fields");
  });
});

describe("sessions over time", () => {
  it("expires a client session after 7 days and renews it in the second half", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    const DAY = 24 * 60 * 60 * 1000;
    try {
      server.clock.advance(4 * DAY);
      const renewed = await client.get("/api/auth/me");
      expect(renewed.status).toBe(200);
      expect(renewed.headers.getSetCookie().join()).toMatch(/Max-Age=60480\d/);
      server.clock.advance(6 * DAY);
      expect((await client.get("/api/auth/me")).status).toBe(200);
      server.clock.advance(7 * DAY + 1000);
      expect((await client.get("/api/auth/me")).status).toBe(401);
    } finally {
      server.clock.set(new Date());
    }
  });

  it("ends an admin session after 30 idle minutes", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const client = await loginClient(server.url, admin, "admin");
    try {
      server.clock.advance(29 * 60 * 1000);
      expect((await client.get("/api/auth/me")).status).toBe(200);
      server.clock.advance(31 * 60 * 1000);
      expect((await client.get("/api/auth/me")).status).toBe(401);
    } finally {
      server.clock.set(new Date());
    }
  });
});

describe("expired session sweep", () => {
  it("the hourly sweep job removes expired and idle admin sessions, and keeps live ones", async () => {
    const database = await createTestDatabase();
    const user = await createUser(database.db, {});
    const admin = await createUser(database.db, { is_admin: true });
    const now = Date.now();
    const session = (user_id: string, kind: "client" | "admin", expiresInMs: number, idleMs: number) => ({
      id: hashToken(`sweep-${user_id}-${kind}-${expiresInMs}-${idleMs}`),
      user_id,
      kind,
      expires_at: new Date(now + expiresInMs),
      last_used_at: new Date(now - idleMs),
      created_at: new Date(now - idleMs),
    });
    const live = [session(user.id, "client", 60_000, 0), session(admin.id, "admin", 60_000, 60_000)];
    const dead = [session(user.id, "client", -1000, 0), session(admin.id, "admin", 60 * 60_000, 31 * 60_000)];
    await database.db
      .insertInto("sessions")
      .values([...live, ...dead])
      .execute();

    const sweeping = await startTestServer({ database });
    try {
      await sweeping.deps.jobs.send("sweep-expired-rows", {});
      await expect
        .poll(async () => (await sweeping.db.selectFrom("sessions").select("id").execute()).map((r) => r.id).sort(), { timeout: 10_000 })
        .toEqual(live.map((s) => s.id).sort());
    } finally {
      await sweeping.close();
    }
  });
});

describe("admin login", () => {
  it("refuses a client with Admin access required", async () => {
    const user = await createUser(server.db);
    const res = await anon.post("/api/admin/login", { username: user.username, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: "Admin access required" });
  });

  it("signs an admin in with an admin session, after the second factor", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const client = new ApiClient(server.url);
    const res = await client.post("/api/admin/login", { username: admin.username, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ two_factor_required: true, challenge: expect.any(String) });
    expect(res.headers.getSetCookie().join()).not.toMatch(/session=/);
    const second = await client.post("/api/auth/login/2fa", { challenge: res.body.challenge, code: nextSecondFactorCode(admin, server.clock.now()) });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ success: true, user: { is_admin: true } });
    expect(second.headers.getSetCookie().join()).toMatch(/Max-Age=43200/);
    expect((await client.get("/api/admin/stats")).status).toBe(200);
  });
});

describe("bad requests", () => {
  it("answers invalid JSON with 400 and a detail", async () => {
    const res = await anon.request("POST", "/api/auth/login", { body: "{not json", headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "The request body is not valid JSON" });
  });

  it("answers wrong types with 422, never 5xx", async () => {
    for (const body of [[], "x", 42, null, { username: ["a"], password: { p: 1 } }]) {
      const res = await anon.request("POST", "/api/auth/register", { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof res.body.detail).toBe("string");
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it("answers an unknown API path with 404", async () => {
    const res = await anon.get("/api/nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Not found" });
  });

  it("reports health", async () => {
    const res = await anon.get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });
});

describe("procedures through the typed caller", () => {
  it("registers and logs in without HTTP", async () => {
    const caller = createCaller(createContextInner({ deps: server.deps }));
    const input = registration();
    await expect(caller.auth.register(input)).resolves.toEqual({ success: true });
    // Like /trpc, the typed caller answers no token: the session's cookie is where it goes.
    let token: string | undefined;
    const signingIn = createCaller(createContextInner({ deps: server.deps, cookies: { set: (value) => (token = value), clear() {} } }));
    const login = (await signingIn.auth.login({ username: input.username, password: input.password })) as SignedIn;
    expect(login).not.toHaveProperty("session_token");
    const authed = createCaller(createContextInner({ deps: server.deps, sessionToken: token }));
    await expect(authed.auth.me()).resolves.toMatchObject({ username: input.username });
    await expect(caller.auth.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("a tRPC batch", () => {
  it("looks the session up once for all of its procedures", async () => {
    let sessionLookups = 0;
    const countSessionLookups: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (args.result.rows[0] && "session_id" in args.result.rows[0]) sessionLookups++;
        return args.result;
      },
    };
    const database = await createTestDatabase();
    const batchServer = await startTestServer({ database, overrides: { db: database.db.withPlugin(countSessionLookups) } });
    try {
      const user = await createUser(batchServer.db, {});
      const client = await loginClient(batchServer.url, user);
      sessionLookups = 0;
      const res = await client.get(`/trpc/auth.me,folders.list,appointments.list?batch=1&input=${encodeURIComponent("{}")}`);
      expect(res.status).toBe(200);
      expect(res.body.map((r: { result?: unknown }) => r.result !== undefined)).toEqual([true, true, true]);
      expect(sessionLookups).toBe(1);
    } finally {
      await batchServer.close();
    }
  });
});

describe("logs", () => {
  it("never contain passwords or session tokens", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    await client.get("/api/auth/me");
    const all = server.logs.join("\n");
    expect(all).not.toContain(user.password);
    expect(all).not.toContain(client.cookies.get("session"));
  });
});
