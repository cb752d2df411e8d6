// Scorecard item 5: session tokens and their lifetimes, with the controllable clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_IDLE_MS, ADMIN_SESSION_MS, CLIENT_SESSION_MAX_MS, CLIENT_SESSION_MS, generateToken, hashToken } from "../../server/auth/session.ts";
import { createUser, loginClient, signIn, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function bearerLogin(user: UserFixture, portal: "client" | "admin" = "client") {
  const client = new ApiClient(server.url);
  const res = await signIn(client, user, portal);
  expect(res.status).toBe(200);
  const replay = new ApiClient(server.url);
  replay.bearer = res.body.session_token;
  return { client, replay, token: res.body.session_token as string };
}

describe("tokens", () => {
  it("carry at least 128 random bits and only their SHA-256 is stored", async () => {
    const user = await createUser(server.db);
    const tokens = new Set<string>();
    for (let i = 0; i < 3; i++) tokens.add((await bearerLogin(user)).token);
    expect(tokens.size).toBe(3);
    for (const token of tokens) {
      // base32 carries 5 bits a character.
      expect(token).toMatch(/^[a-z2-7]+$/);
      expect(token.length * 5).toBeGreaterThanOrEqual(128);
    }
    expect(generateToken().length * 5).toBeGreaterThanOrEqual(128);
    const rows = await server.db.selectFrom("sessions").selectAll().where("user_id", "=", user.id).execute();
    expect(rows.map((r) => r.id).sort()).toEqual([...tokens].map(hashToken).sort());
    expect(JSON.stringify(rows)).not.toMatch(new RegExp([...tokens].join("|")));
  });
});

describe("ending sessions", () => {
  it("logout ends the session for real (replaying the token gives 401)", async () => {
    const user = await createUser(server.db);
    const { client, replay } = await bearerLogin(user);
    expect((await replay.get("/api/auth/me")).status).toBe(200);
    expect((await client.post("/api/auth/logout")).status).toBe(200);
    expect((await replay.get("/api/auth/me")).status).toBe(401);
  });

  it("logging in ends the session the request already carried (an admin login leaves no 7-day client session behind)", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const browser = new ApiClient(server.url);
    const asClient = await signIn(browser, admin, "client");
    expect(asClient.status).toBe(200);
    const clientSession = new ApiClient(server.url);
    clientSession.bearer = asClient.body.session_token;
    expect((await clientSession.get("/api/auth/me")).status).toBe(200);

    const asAdmin = await signIn(browser, admin, "admin");
    expect(asAdmin.status).toBe(200);
    expect((await clientSession.get("/api/auth/me")).status).toBe(401);
    expect((await browser.get("/api/admin/stats")).status).toBe(200);
    const rows = await server.db.selectFrom("sessions").select(["id", "kind"]).where("user_id", "=", admin.id).execute();
    expect(rows).toEqual([{ id: hashToken(asAdmin.body.session_token), kind: "admin" }]);
  });

  it("a password reset ends every session of the user", async () => {
    const user = await createUser(server.db);
    const sessions = [await bearerLogin(user), await bearerLogin(user)];
    const token = generateToken();
    await server.db
      .insertInto("password_reset_tokens")
      .values({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(server.clock.now().getTime() + 30 * MINUTE) })
      .execute();
    const reset = await new ApiClient(server.url).post("/api/auth/reset-password", { token, new_password: "Fresh-Lantern-Orbit-5" });
    expect(reset.status).toBe(200);
    for (const s of sessions) expect((await s.replay.get("/api/auth/me")).status).toBe(401);
  });

  it("deleting the user ends every session of the user", async () => {
    const user = await createUser(server.db);
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const sessions = [await bearerLogin(user), await bearerLogin(user)];
    expect((await admin.delete(`/api/admin/users/${user.id}`)).status).toBe(200);
    for (const s of sessions) expect((await s.replay.get("/api/auth/me")).status).toBe(401);
  });
});

describe("lifetimes", () => {
  it("a client session lasts 7 days, and is renewed when used in its second half", async () => {
    expect(CLIENT_SESSION_MS).toBe(7 * DAY);
    const user = await createUser(server.db);
    const idle = await bearerLogin(user);
    const active = await loginClient(server.url, user);

    server.clock.advance(4 * DAY);
    const renewed = await active.get("/api/auth/me");
    expect(renewed.status).toBe(200);
    expect(renewed.headers.getSetCookie().join("\n")).toMatch(/Max-Age=604800/);

    server.clock.advance(3 * DAY + MINUTE);
    expect((await idle.replay.get("/api/auth/me")).status).toBe(401);
    expect((await active.get("/api/auth/me")).status).toBe(200);
    server.clock.advance(7 * DAY);
    expect((await active.get("/api/auth/me")).status).toBe(401);
  });

  it("a client session in daily use still ends 90 days after sign-in, its last renewal cut to that day", async () => {
    expect(CLIENT_SESSION_MAX_MS).toBe(90 * DAY);
    const user = await createUser(server.db);
    const daily = await loginClient(server.url, user);
    let lastCookie = "";
    for (let day = 1; day < 90; day++) {
      server.clock.advance(DAY);
      const me = await daily.get("/api/auth/me");
      expect(me.status, `day ${day}`).toBe(200);
      lastCookie = me.headers.getSetCookie().join("\n") || lastCookie;
    }
    // The last renewal (day 84) would have run to day 91; it stops at day 90.
    const maxAgeDays = Number(/Max-Age=(\d+)/.exec(lastCookie)?.[1]) / (DAY / 1000);
    expect(maxAgeDays).toBeGreaterThan(5.9);
    expect(maxAgeDays).toBeLessThanOrEqual(6);
    server.clock.advance(DAY + MINUTE);
    expect((await daily.get("/api/auth/me")).status).toBe(401);
  });

  it("an admin session ends after 30 minutes idle", async () => {
    expect(ADMIN_IDLE_MS).toBe(30 * MINUTE);
    const admin = await bearerLogin(await createUser(server.db, { is_admin: true }), "admin");
    server.clock.advance(29 * MINUTE);
    expect((await admin.replay.get("/api/admin/stats")).status).toBe(200);
    server.clock.advance(31 * MINUTE);
    expect((await admin.replay.get("/api/admin/stats")).status).toBe(401);
  });

  it("an admin session ends 12 hours after sign-in however active", async () => {
    expect(ADMIN_SESSION_MS).toBe(12 * 60 * MINUTE);
    const admin = await bearerLogin(await createUser(server.db, { is_admin: true }), "admin");
    for (let elapsed = 0; elapsed < 12 * 60 * MINUTE - 20 * MINUTE; elapsed += 20 * MINUTE) {
      server.clock.advance(20 * MINUTE);
      expect((await admin.replay.get("/api/admin/stats")).status).toBe(200);
    }
    server.clock.advance(21 * MINUTE);
    expect((await admin.replay.get("/api/admin/stats")).status).toBe(401);
  });
});
