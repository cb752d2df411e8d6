// Passkeys over the API (issue 20): the options the browser gets, and every answer that must be
// refused. Registering and signing in with a real authenticator is in the browser test
// (test/e2e/account-security.e2e.test.ts, Chromium's virtual authenticator).
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PASSKEY_CHALLENGES_PER_IP_PER_MINUTE } from "../../server/auth/rate-limit.ts";
import { storeWebauthnChallenge, takeWebauthnChallenge } from "../../server/auth/webauthn.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");
const clientData = (type: string, challenge: string) => b64url(JSON.stringify({ type, challenge, origin: server.url, crossOrigin: false }));

function registration(challenge: string) {
  return {
    id: b64url(randomBytes(16)),
    rawId: b64url(randomBytes(16)),
    type: "public-key",
    response: { clientDataJSON: clientData("webauthn.create", challenge), attestationObject: b64url(randomBytes(64)), transports: ["internal"] },
    clientExtensionResults: {},
  };
}

function assertion(challenge: string, credentialId = b64url(randomBytes(16))) {
  return {
    id: credentialId,
    rawId: credentialId,
    type: "public-key",
    response: {
      clientDataJSON: clientData("webauthn.get", challenge),
      authenticatorData: b64url(randomBytes(37)),
      signature: b64url(randomBytes(70)),
    },
    clientExtensionResults: {},
  };
}

async function insertPasskey(userId: string, name: string) {
  return server.db
    .insertInto("passkeys")
    .values({ user_id: userId, credential_id: b64url(randomBytes(16)), public_key: randomBytes(77), counter: 0, name })
    .returning(["id", "credential_id"])
    .executeTakeFirstOrThrow();
}

const PASSKEY_FAILED = { detail: "Signing in with the passkey did not work. Please try again." };

describe("registering a passkey", () => {
  it("offers options for a discoverable passkey with user verification, for this site", async () => {
    const user = await createUser(server.db, { name: "Robin Ledger" });
    const client = await loginClient(server.url, user);
    expect((await client.get("/api/auth/passkeys")).body).toEqual([]);
    const existing = await insertPasskey(user.id, "Old laptop");
    const res = await client.post("/api/auth/passkeys/options");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      rp: { id: "127.0.0.1" },
      user: { name: user.username, displayName: "Robin Ledger" },
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      attestation: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    expect(res.body.excludeCredentials).toEqual([{ id: existing.credential_id, type: "public-key", transports: [] }]);
  });

  it("refuses answers to no challenge, to someone else's, and ones that do not verify; a challenge is spent by one answer", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    const refused = { detail: "The passkey could not be registered. Please try again." };

    const unknown = await client.post("/api/auth/passkeys", { name: "Laptop", response: registration(b64url(randomBytes(32))) });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(refused);

    const stranger = await loginClient(server.url, await createUser(server.db));
    const theirs = (await stranger.post("/api/auth/passkeys/options")).body.challenge;
    expect((await client.post("/api/auth/passkeys", { name: "Laptop", response: registration(theirs) })).body).toEqual(refused);

    const { challenge } = (await client.post("/api/auth/passkeys/options")).body;
    expect((await client.post("/api/auth/passkeys", { name: "Laptop", response: registration(challenge) })).body).toEqual(refused);
    const stored = await server.db.selectFrom("webauthn_challenges").select("purpose").where("user_id", "=", user.id).execute();
    expect(stored).toEqual([]);
    expect((await client.get("/api/auth/passkeys")).body).toEqual([]);

    expect((await client.post("/api/auth/passkeys", { name: " ", response: registration(challenge) })).body).toEqual({
      detail: "Please name the passkey",
    });
    const malformed = await client.post("/api/auth/passkeys", { name: "Laptop", response: { id: "not base64url!" } });
    expect(malformed.status).toBe(422);
  });

  it("lists passkeys and removes them; another user's answers like a missing one; the owner is mailed", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    const mine = await insertPasskey(user.id, "Phone");
    const theirs = await insertPasskey((await createUser(server.db)).id, "Their phone");
    expect((await client.get("/api/auth/passkeys")).body).toEqual([
      { id: mine.id, name: "Phone", created_at: expect.any(String), last_used_at: null },
    ]);
    const foreign = await client.delete(`/api/auth/passkeys/${theirs.id}`);
    const missing = await client.delete(`/api/auth/passkeys/${randomUUID()}`);
    expect(missing).toMatchObject({ status: 404, body: { detail: "Passkey not found" } });
    expect(foreign).toMatchObject({ status: missing.status, body: missing.body });
    expect((await client.delete(`/api/auth/passkeys/${mine.id}`)).body).toEqual({ success: true });
    expect((await client.get("/api/auth/passkeys")).body).toEqual([]);
    await smtp.waitForMessages(1, 30_000);
    expect(smtp.messages.find((m) => m.to.includes(user.email))?.subject).toMatch(/A passkey was removed/);
  });
});

describe("signing in with a passkey", () => {
  it("offers usernameless options: no account named, user verification required", async () => {
    const res = await new ApiClient(server.url).post("/api/auth/passkey/login/options", {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rpId: "127.0.0.1", userVerification: "required", challenge: expect.any(String) });
    expect(res.body.allowCredentials ?? []).toEqual([]);
  });

  it("refuses an answer to no challenge, from an unknown passkey, or that does not verify, and spends the challenge", async () => {
    const anon = new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": "198.51.100.60" });
    expect((await anon.post("/api/auth/passkey/login", { response: assertion(b64url(randomBytes(32))) })).body).toEqual(PASSKEY_FAILED);

    const unknownKey = (await anon.post("/api/auth/passkey/login/options", {})).body.challenge;
    const unknown = await anon.post("/api/auth/passkey/login", { response: assertion(unknownKey) });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(PASSKEY_FAILED);

    const user = await createUser(server.db);
    const passkey = await insertPasskey(user.id, "Phone");
    const forged = (await anon.post("/api/auth/passkey/login/options", { portal: "client" })).body.challenge;
    expect((await anon.post("/api/auth/passkey/login", { response: assertion(forged, passkey.credential_id) })).body).toEqual(PASSKEY_FAILED);
    expect((await anon.get("/api/auth/me")).status).toBe(401);
    // Spent: the same challenge again is refused before anything is checked.
    expect((await anon.post("/api/auth/passkey/login", { response: assertion(forged, passkey.credential_id) })).body).toEqual(PASSKEY_FAILED);
    const row = await server.db.selectFrom("passkeys").select(["counter", "last_used_at"]).where("id", "=", passkey.id).executeTakeFirstOrThrow();
    expect({ ...row, counter: Number(row.counter) }).toEqual({ counter: 0, last_used_at: null });
  });

  it("keeps a challenge 5 minutes, for one answer", async () => {
    const now = new Date();
    const take = (value: string, at: number) => takeWebauthnChallenge(server.db, value, "login", new Date(now.getTime() + at));
    await storeWebauthnChallenge(server.db, { value: "fresh-challenge", purpose: "login", kind: "client" }, now);
    await storeWebauthnChallenge(server.db, { value: "late-challenge", purpose: "login", kind: "client" }, now);
    expect(await take("fresh-challenge", 4 * 60 * 1000)).toMatchObject({ kind: "client" });
    expect(await take("fresh-challenge", 4 * 60 * 1000)).toBeNull();
    expect(await take("late-challenge", 5 * 60 * 1000 + 1000)).toBeNull();
  });

  it("limits the challenges one address may ask for", async () => {
    const anon = new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": "198.51.100.62" });
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_PASSKEY_CHALLENGES_PER_IP_PER_MINUTE; i++)
      statuses.push((await anon.post("/api/auth/passkey/login/options", {})).status);
    expect(statuses).toEqual([...Array(MAX_PASSKEY_CHALLENGES_PER_IP_PER_MINUTE).fill(200), 429]);
  });

  it("refuses a portal it does not know", async () => {
    const anon = new ApiClient(server.url);
    const res = await anon.post("/api/auth/passkey/login/options", { portal: "boss" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "portal must be client or admin" });
  });
});
