// Account settings (issue 20): name, password change (lockout, other sessions end, mail), email
// change (a link to the new address, 1 hour, single use; the old address told), deleting the account.
import { Readable } from "node:stream";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_CONSECUTIVE_LOGIN_FAILURES } from "../../server/auth/rate-limit.ts";
import { createSession, hashToken } from "../../server/auth/session.ts";
import { insertUser } from "../../server/domains/auth/queries.ts";
import { createUser, DEFAULT_PASSWORD, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const NEW_PASSWORD = "Copper-Lantern-Meadow-9";
let smtp: TestSmtpServer;
let server: TestServer;
let ipCounter = 0;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  server.clock.set(new Date());
});

/** A browser of its own at an address of its own, signed in as `user`. */
async function signedIn(user: UserFixture): Promise<ApiClient> {
  ipCounter++;
  const client = new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": `192.0.2.${ipCounter}` });
  const res = await client.post("/api/auth/login", { username: user.username, password: user.password });
  expect(res.body).toMatchObject({ success: true });
  return client;
}

function linkToken(mail: ReceivedMail): string {
  const link = /\/\?email_change_token=([a-z2-7]+)/.exec(mail.text);
  if (!link) throw new Error(`no link in:\n${mail.text}`);
  expect(mail.html).toContain(`${server.url}/?email_change_token=${link[1]}`);
  return link[1]!;
}

describe("the account page's data", () => {
  it("answers the user, whether there is a password, and two-factor sign-in", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user);
    const res = await client.get("/api/auth/account");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: { id: user.id, email: user.email },
      has_password: true,
      pending_email: null,
      two_factor: { enabled: false, enabled_at: null, backup_codes_left: 0, required: false },
    });
  });

  it("changes the name", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user);
    expect((await client.patch("/api/auth/me", { name: "  " })).body).toEqual({ detail: "Please enter your name" });
    const res = await client.patch("/api/auth/me", { name: "  Robin Ledger " });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Robin Ledger");
    expect((await client.get("/api/auth/me")).body.name).toBe("Robin Ledger");
  });
});

describe("change password", () => {
  it("needs the current password, ends every other session, keeps this one on a new token, and mails the owner", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user);
    const other = await signedIn(user);
    const oldToken = client.cookies.get("session")!;

    const wrong = await client.post("/api/auth/change-password", { current_password: "Not-The-Password-1", new_password: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: "Current password is incorrect" });
    expect((await client.post("/api/auth/change-password", { current_password: DEFAULT_PASSWORD, new_password: "password123" })).status).toBe(422);
    expect((await client.post("/api/auth/change-password", { current_password: DEFAULT_PASSWORD, new_password: "abc" })).body).toEqual({
      detail: "Password must be at least 6 characters long",
    });

    const res = await client.post("/api/auth/change-password", { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    // Over REST the new session's token comes with the answer, as a login's does (issue 29); the cookie holds it too.
    expect(res.body).toEqual({ success: true, session_token: client.cookies.get("session") });
    expect(client.cookies.get("session")).not.toBe(oldToken);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect((await other.get("/api/auth/me")).status).toBe(401);
    const stale = new ApiClient(server.url);
    stale.cookies.set("session", oldToken);
    expect((await stale.get("/api/auth/me")).status).toBe(401);

    expect((await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD })).status).toBe(401);
    expect((await signedIn({ ...user, password: NEW_PASSWORD })).cookies.has("session")).toBe(true);

    const mail = await smtp.waitForMail(user.email, /Your password was changed/);
    expect(mail.text).toMatch(/^Hello,$/m);
    expect(mail.text).toContain("every other session of the account was signed out");
  });

  it("answers a Bearer client the new token", async () => {
    const user = await createUser(server.db);
    const login = await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD });
    const bearer = new ApiClient(server.url, {});
    bearer.bearer = login.body.session_token;
    const res = await bearer.post("/api/auth/change-password", {
      current_password: DEFAULT_PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, session_token: expect.stringMatching(/^[a-z2-7]{32}$/) });
    expect((await bearer.get("/api/auth/me")).status).toBe(401);
    bearer.bearer = res.body.session_token;
    expect((await bearer.get("/api/auth/me")).status).toBe(200);
  });

  it("counts wrong current passwords toward the sign-in lockout", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user);
    for (let i = 0; i < MAX_CONSECUTIVE_LOGIN_FAILURES; i++) {
      expect((await client.post("/api/auth/change-password", { current_password: `Wrong-${i}-Password`, new_password: NEW_PASSWORD })).status).toBe(
        400,
      );
    }
    const locked = await client.post("/api/auth/change-password", { current_password: DEFAULT_PASSWORD, new_password: NEW_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toMatch(/^Too many failed login attempts/);
    // The same count as the login's: this browser cannot sign in to the account either.
    expect((await client.post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD })).status).toBe(429);
  });

  it("tells an account without a password how to get one", async () => {
    const googleUser = await insertUser(server.db, { username: null, email: `g-${randomUUID()}@example.com`, name: "G", password_hash: null });
    const session = await createSession(server.db, { id: googleUser.id, sessionEpoch: 0 }, "client", server.clock.now());
    const client = new ApiClient(server.url, {});
    client.bearer = session!.token;
    const res = await client.post("/api/auth/change-password", { current_password: "anything", new_password: NEW_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^Your account has no password yet/);
  });
});

describe("change email", () => {
  it("takes effect when the link sent to the new address is followed, once; the old address is told", async () => {
    const user = await createUser(server.db);
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
    const client = await signedIn(user);
    const newEmail = `new-${randomUUID().slice(0, 8)}@example.com`;

    expect((await client.post("/api/auth/change-email", { new_email: newEmail })).body).toEqual({ detail: "Please enter your current password" });
    expect((await client.post("/api/auth/change-email", { new_email: newEmail, password: "Not-The-Password-1" })).body).toEqual({
      detail: "Current password is incorrect",
    });
    expect((await client.post("/api/auth/change-email", { new_email: user.email.toUpperCase(), password: DEFAULT_PASSWORD })).status).toBe(400);
    const taken = await createUser(server.db);
    expect((await client.post("/api/auth/change-email", { new_email: taken.email, password: DEFAULT_PASSWORD })).status).toBe(409);

    const res = await client.post("/api/auth/change-email", { new_email: newEmail, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    const mail = await smtp.waitForMail(newEmail, /Confirm your new email/);
    expect(mail.text).toMatch(/^Hello,$/m);
    expect(mail.text).not.toContain(user.name);
    expect((await client.get("/api/auth/me")).body.email).toBe(user.email);
    expect((await client.get("/api/auth/account")).body.pending_email).toBe(newEmail);

    const token = linkToken(mail);
    const anon = new ApiClient(server.url);
    expect((await anon.post("/api/auth/confirm-email-change", { token })).body).toEqual({ success: true });
    const me = (await client.get("/api/auth/me")).body;
    expect(me).toMatchObject({ email: newEmail, email_verified: true });
    expect((await client.get("/api/auth/account")).body.pending_email).toBeNull();

    const again = await anon.post("/api/auth/confirm-email-change", { token });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ detail: "This email change link is invalid or has expired" });

    const told = await smtp.waitForMail(user.email, /email address was changed/);
    expect(told.text).toContain(newEmail);
    // Mail now goes to the new address: the old one's reset links are gone.
    expect(await server.db.selectFrom("password_reset_tokens").select("user_id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("refuses a link after 1 hour", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user);
    const newEmail = `late-${randomUUID().slice(0, 8)}@example.com`;
    expect((await client.post("/api/auth/change-email", { new_email: newEmail, password: DEFAULT_PASSWORD })).status).toBe(200);
    const token = linkToken(await smtp.waitForMail(newEmail, /Confirm your new email/));
    server.clock.advance(60 * 60 * 1000 + 1000);
    const late = await new ApiClient(server.url).post("/api/auth/confirm-email-change", { token });
    expect(late.status).toBe(422);
    server.clock.set(new Date());
    expect((await client.get("/api/auth/me")).body.email).toBe(user.email);
  });

  it("does not tell an old address nobody ever verified", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user);
    const newEmail = `unverified-${randomUUID().slice(0, 8)}@example.com`;
    await client.post("/api/auth/change-email", { new_email: newEmail, password: DEFAULT_PASSWORD });
    const token = linkToken(await smtp.waitForMail(newEmail, /Confirm your new email/));
    expect((await new ApiClient(server.url).post("/api/auth/confirm-email-change", { token })).status).toBe(200);
    const change = await server.db.selectFrom("email_changes").select("id").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    await expect
      .poll(
        async () => {
          const { rows } = await sql<{ state: string }>`select state from pgboss.job
            where name = 'email-now' and data->>'kind' = 'email-changed' and data->>'changeId' = ${change.id}`.execute(server.db);
          return rows.map((r) => r.state);
        },
        { timeout: 30_000 },
      )
      .toEqual(["completed"]);
    expect(smtp.messages.some((m) => m.to.includes(user.email))).toBe(false);
  });
});

describe("delete my account", () => {
  it("needs the password; then everything of the account goes, its stored files too", async () => {
    const user = await createUser(server.db);
    const client = await signedIn(user);
    const key = randomUUID();
    await server.deps.storage.put(key, Readable.from([Buffer.from("w-2")]));
    await server.db
      .insertInto("documents")
      .values({
        account_id: user.id,
        folder_id: null,
        original_filename: "w2.pdf",
        storage_key: key,
        content_type: "application/pdf",
        file_size: 3,
        sha256: "x",
      })
      .execute();

    expect((await client.post("/api/auth/delete-account", {})).body).toEqual({ detail: "Please enter your current password" });
    expect((await client.post("/api/auth/delete-account", { password: "Not-The-Password-1" })).status).toBe(400);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeDefined();

    const res = await client.post("/api/auth/delete-account", { password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", user.id).execute()).toEqual([]);
    await expect(server.deps.storage.get(key)).rejects.toThrow();
    expect((await client.get("/api/auth/me")).status).toBe(401);
    expect((await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: DEFAULT_PASSWORD })).status).toBe(401);
  });

  it("is not for admins", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const client = await loginClient(server.url, admin, "admin");
    const res = await client.post("/api/auth/delete-account", { password: DEFAULT_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Admin users cannot be deleted" });
  });

  it("asks an account without a password or a second factor for a recent sign-in", async () => {
    const googleUser = await insertUser(server.db, { username: null, email: `g-${randomUUID()}@example.com`, name: "G", password_hash: null });
    const session = await createSession(server.db, { id: googleUser.id, sessionEpoch: 0 }, "client", server.clock.now());
    const client = new ApiClient(server.url, {});
    client.bearer = session!.token;
    server.clock.advance(11 * 60 * 1000);
    const stale = await client.post("/api/auth/delete-account", {});
    expect(stale.status).toBe(400);
    expect(stale.body.detail).toMatch(/sign in again/);
    server.clock.set(new Date());
    expect((await client.post("/api/auth/delete-account", {})).status).toBe(200);
    expect(await server.db.selectFrom("sessions").select("id").where("id", "=", hashToken(session!.token)).executeTakeFirst()).toBeUndefined();
  });
});
