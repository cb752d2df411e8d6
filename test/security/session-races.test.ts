// A sign-in checks the credential, then opens its session. What ends sessions (a password reset,
// Google taking over the account, deleting the account) can land in between. These tests hold the
// sign-in exactly there: a statement-level trigger makes every INSERT into sessions wait on an
// advisory lock the test holds, the other action runs to the end, then the lock is released.
// Postgres only: the embedded database has one connection, so nothing can run while one waits.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateToken, hashToken } from "../../server/auth/session.ts";
import { findOrCreateGoogleUser } from "../../server/domains/auth/external-sign-in.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const HOLD = 4242;
let server: TestServer;
let locker: pg.Client;

describe.skipIf(!process.env.DATABASE_URL)("a sign-in whose session is opened after its credential stopped counting", () => {
  beforeAll(async () => {
    server = await startTestServer();
    locker = new pg.Client({ connectionString: server.database.url });
    await locker.connect();
    await locker.query(`
      create function hold_session_inserts() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(${HOLD});
        return null;
      end $$`);
    await locker.query("create trigger hold_session_inserts before insert on sessions for each statement execute function hold_session_inserts()");
  });
  afterAll(async () => {
    await locker?.end();
    await server?.close();
  });

  /** Starts `signIn`, waits until it is held at its session insert, runs `meanwhile`, then lets it go. */
  async function heldAtSessionInsert<T>(signIn: () => Promise<T>, meanwhile: () => Promise<void>): Promise<T> {
    await locker.query("select pg_advisory_lock($1)", [HOLD]);
    let released = false;
    try {
      const pending = signIn();
      await waitForHeldInsert();
      await meanwhile();
      await locker.query("select pg_advisory_unlock($1)", [HOLD]);
      released = true;
      return await pending;
    } finally {
      if (!released) await locker.query("select pg_advisory_unlock($1)", [HOLD]);
    }
  }

  async function waitForHeldInsert(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows } = await locker.query(
        "select count(*)::int as held from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'",
      );
      if (rows[0].held > 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the sign-in never reached its session insert");
  }

  async function sessionsOf(userId: string) {
    return server.db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute();
  }

  it("a login checked before a password reset opens no session after it", async () => {
    const user = await createUser(server.db);
    const token = generateToken();
    await server.db
      .insertInto("password_reset_tokens")
      .values({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + 30 * 60_000) })
      .execute();
    const attacker = new ApiClient(server.url);
    const login = await heldAtSessionInsert(
      () => attacker.post("/api/auth/login", { username: user.username, password: user.password }),
      async () => {
        const reset = await new ApiClient(server.url).post("/api/auth/reset-password", { token, new_password: "Fresh-Lantern-Orbit-5" });
        expect(reset.status).toBe(200);
      },
    );
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ detail: "Invalid username or password" });
    expect((await attacker.get("/api/auth/me")).status).toBe(401);
    expect(await sessionsOf(user.id)).toEqual([]);
  });

  it("a login checked before Google takes the account over opens no session after it", async () => {
    const user = await createUser(server.db);
    const attacker = new ApiClient(server.url);
    const login = await heldAtSessionInsert(
      () => attacker.post("/api/auth/login", { username: user.username, password: user.password }),
      async () => {
        await findOrCreateGoogleUser(server.db, { subject: `google-${user.id}`, email: user.email, name: null });
      },
    );
    expect(login.status).toBe(401);
    expect((await attacker.get("/api/auth/me")).status).toBe(401);
    expect(await sessionsOf(user.id)).toEqual([]);
  });

  it("a login racing the deletion of its account answers 401, not 500", async () => {
    const user = await createUser(server.db);
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const login = await heldAtSessionInsert(
      () => new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: user.password }),
      async () => {
        expect((await admin.delete(`/api/admin/users/${user.id}`)).status).toBe(200);
      },
    );
    expect(login.status).toBe(401);
    expect(server.logs.join("\n")).not.toMatch(/"level":50/);
  });

  it("a login not raced by anything still signs in", async () => {
    const user = await createUser(server.db);
    const client = new ApiClient(server.url);
    const login = await heldAtSessionInsert(
      () => client.post("/api/auth/login", { username: user.username, password: user.password }),
      async () => {},
    );
    expect(login.status).toBe(200);
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });
});
