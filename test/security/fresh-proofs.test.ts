// Issue 28, items 3 and 7 (first half) (docs/security.md, Round 3): a passkey added with a bare
// session survived a password change and, for an admin, signed in without the second factor; and
// registration options could be asked without limit. Each attack replayed.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_REGISTRATION_CHALLENGES_PER_USER } from "../../server/auth/webauthn.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";
import { linkToken, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const CONFIRM = "To continue, confirm it is you with your password or a code from your authenticator app.";
const ELEVEN_MINUTES = 11 * 60 * 1000;

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterEach(() => server.clock.set(new Date()));
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

async function addPasskey(client: ApiClient, authenticator: SoftAuthenticator) {
  const options = await client.post("/api/auth/passkeys/options");
  if (options.status !== 200) return options;
  return client.post("/api/auth/passkeys", { name: "Laptop", response: authenticator.register(options.body.challenge) });
}

async function passkeySignIn(authenticator: SoftAuthenticator, portal: "client" | "admin") {
  const browser = new ApiClient(server.url);
  const options = await browser.post("/api/auth/passkey/login/options", { portal });
  expect(options.status).toBe(200);
  return browser.post("/api/auth/passkey/login", { response: authenticator.assert(options.body.challenge) });
}

describe("adding a passkey or a second factor needs a fresh proof", () => {
  it("a session whose last proof is 11 minutes old is asked for the password first", async () => {
    const user = await createUser(server.db);
    const session = await loginClient(server.url, user);
    server.clock.advance(ELEVEN_MINUTES);
    const authenticator = new SoftAuthenticator(server.url);
    expect(await addPasskey(session, authenticator)).toMatchObject({ status: 400, body: { detail: CONFIRM } });
    expect(await session.post("/api/auth/2fa/setup")).toMatchObject({ status: 400, body: { detail: CONFIRM } });
    // An answer to a challenge asked earlier is no way around it.
    expect(await session.post("/api/auth/passkeys", { name: "Laptop", response: authenticator.register("c29tZS1jaGFsbGVuZ2U") })).toMatchObject({
      status: 400,
      body: { detail: CONFIRM },
    });

    expect(await session.post("/api/auth/confirm-identity", { password: "Wrong-Password-123" })).toMatchObject({
      status: 400,
      body: { detail: "Current password is incorrect" },
    });
    expect((await session.post("/api/auth/confirm-identity", { password: user.password })).body).toEqual({ success: true });
    const added = await addPasskey(session, authenticator);
    expect(added.status).toBe(201);
    expect(await server.db.selectFrom("passkeys").select(["proven", "second_factor_proven"]).where("user_id", "=", user.id).execute()).toEqual([
      { proven: true, second_factor_proven: false },
    ]);
    // The client's passkey signs in (both factors for a client, as before).
    expect((await passkeySignIn(authenticator, "client")).status).toBe(200);
  });

  it("an admin's passkey signs in only if it was added under a fresh second factor", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    // Signed in with password and code: a fresh second factor.
    const fresh = await loginClient(server.url, admin, "admin");
    const proven = new SoftAuthenticator(server.url);
    expect((await addPasskey(fresh, proven)).status).toBe(201);
    expect((await passkeySignIn(proven, "admin")).status).toBe(200);

    // Eleven minutes later only the password is shown again: a passkey added now is not both factors.
    const later = await loginClient(server.url, admin, "admin");
    server.clock.advance(ELEVEN_MINUTES);
    await later.get("/api/auth/me");
    const passwordOnly = new SoftAuthenticator(server.url);
    expect((await later.post("/api/auth/confirm-identity", { password: admin.password })).status).toBe(200);
    expect((await addPasskey(later, passwordOnly)).status).toBe(201);
    const refused = await passkeySignIn(passwordOnly, "admin");
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/added without a code/);
  });

  it("an admin passkey added with a bare session (before this round) does not sign in to the firm's portal", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const authenticator = new SoftAuthenticator(server.url);
    await server.db
      .insertInto("passkeys")
      .values({ user_id: admin.id, credential_id: authenticator.id, public_key: authenticator.cosePublicKey(), counter: 0, name: "Old" })
      .execute();
    const res = await passkeySignIn(authenticator, "admin");
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().join()).not.toMatch(/session=[^;]/);
  });
});

describe("passkeys and the owner's recovery", () => {
  it("a password reset removes every passkey added before it", async () => {
    const user = await createUser(server.db);
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
    const authenticator = new SoftAuthenticator(server.url);
    await server.db
      .insertInto("passkeys")
      .values({ user_id: user.id, credential_id: authenticator.id, public_key: authenticator.cosePublicKey(), counter: 0, name: "Someone's" })
      .execute();
    expect((await passkeySignIn(authenticator, "client")).status).toBe(200);
    const anon = new ApiClient(server.url);
    await anon.post("/api/auth/forgot-password", { email: user.email });
    const token = linkToken(await smtp.waitForMail(user.email, /Reset your/), "reset_token");
    expect((await anon.post("/api/auth/reset-password", { token, new_password: "Owner-Reset-Again-9" })).status).toBe(200);
    expect((await passkeySignIn(authenticator, "client")).status).toBe(401);
    await smtp.waitForMail(user.email, /passkeys were removed/);
  });

  it("a password change removes passkeys added with a bare session", async () => {
    const user = await createUser(server.db);
    const authenticator = new SoftAuthenticator(server.url);
    await server.db
      .insertInto("passkeys")
      .values({ user_id: user.id, credential_id: authenticator.id, public_key: authenticator.cosePublicKey(), counter: 0, name: "Bare" })
      .execute();
    const session = await loginClient(server.url, user);
    expect((await session.post("/api/auth/change-password", { current_password: user.password, new_password: "Owner-Changed-It-9" })).status).toBe(
      200,
    );
    expect((await passkeySignIn(authenticator, "client")).status).toBe(401);
  });
});

describe("passkey registration options", () => {
  it(`are kept for at most ${MAX_REGISTRATION_CHALLENGES_PER_USER} ceremonies per user, and expired ones go`, async () => {
    const user = await createUser(server.db, { username: `loop_${randomBytes(3).toString("hex")}` });
    const session = await loginClient(server.url, user);
    for (let i = 0; i < 40; i++) expect((await session.post("/api/auth/passkeys/options")).status).toBe(200);
    const stored = () => server.db.selectFrom("webauthn_challenges").select("expires_at").where("user_id", "=", user.id).execute();
    expect((await stored()).length).toBeLessThanOrEqual(3);
    // Five minutes on, the next request leaves only itself.
    server.clock.advance(6 * 60 * 1000);
    await session.post("/api/auth/confirm-identity", { password: user.password });
    expect((await session.post("/api/auth/passkeys/options")).status).toBe(200);
    expect(await stored()).toHaveLength(1);
  });
});
