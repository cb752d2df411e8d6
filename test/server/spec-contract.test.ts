// A REST client written from the specification and /api/openapi.json alone (issue 29): it keeps
// no cookies, reads `session_token` from the answer that finishes each kind of sign-in, and makes
// its next call with it as `Authorization: Bearer`. Every answer is checked against the document
// (checkApiResponse), whose signed-in answers require the token.
import { createHash, createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCodeForStep, totpKeyFromText, totpStep } from "../../server/auth/totp.ts";
import { createUser, DEFAULT_PASSWORD, nextSecondFactorCode } from "../helpers/factories.ts";
import type { Json } from "../helpers/http.ts";
import { checkApiResponse } from "../helpers/response-contract.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** One call as a spec-written client makes it: JSON in and out, a Bearer token if it has one, no cookie jar. */
async function call(method: string, path: string, opts: { json?: unknown; token?: string } = {}): Promise<{ status: number; body: Json }> {
  const url = new URL(`/api${path}`, server.url);
  const headers: Record<string, string> = {};
  if (opts.json !== undefined) headers["Content-Type"] = "application/json";
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const res = await fetch(url, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
  const body = (await res.json()) as Json;
  checkApiResponse(method, url, res.status, body);
  return { status: res.status, body };
}

function expectSignedIn(res: { status: number; body: Json }, userId: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ success: true, session_token: expect.stringMatching(/^[a-z2-7]{32}$/), user: { id: userId } });
  return res.body.session_token as string;
}

describe("a client written from the specification", () => {
  it("logs in at POST /api/auth/login and calls /auth/me with the session_token it was answered", async () => {
    const user = await createUser(server.db);
    const token = expectSignedIn(await call("POST", "/auth/login", { json: { username: user.username, password: DEFAULT_PASSWORD } }), user.id);
    const me = await call("GET", "/auth/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    expect((await call("POST", "/auth/logout", { token })).status).toBe(200);
    expect((await call("GET", "/auth/me", { token })).status).toBe(401);
  });

  it("logs in at POST /api/admin/login, answers the second factor's challenge, and reads /admin/stats", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const login = await call("POST", "/admin/login", { json: { username: admin.username, password: DEFAULT_PASSWORD } });
    expect(login.body).toEqual({ two_factor_required: true, challenge: expect.any(String) });
    const code = nextSecondFactorCode(admin, server.clock.now());
    const token = expectSignedIn(await call("POST", "/auth/login/2fa", { json: { challenge: login.body.challenge, code } }), admin.id);
    expect((await call("GET", "/admin/stats", { token })).status).toBe(200);
  });

  it("enrols an admin's first second factor during sign-in, and the enabling call answers the token", async () => {
    const admin = await createUser(server.db, { is_admin: true, two_factor: false });
    const login = await call("POST", "/admin/login", { json: { username: admin.username, password: DEFAULT_PASSWORD } });
    expect(login.body).toEqual({ two_factor_setup_required: true, challenge: expect.any(String) });
    const setup = await call("POST", "/auth/login/2fa/setup", { json: { challenge: login.body.challenge } });
    expect(setup.status).toBe(200);
    const code = totpCodeForStep(totpKeyFromText(setup.body.secret), totpStep(server.clock.now()));
    const enabled = await call("POST", "/auth/login/2fa/enable", { json: { challenge: login.body.challenge, code } });
    const token = expectSignedIn(enabled, admin.id);
    expect(enabled.body.backup_codes).toHaveLength(10);
    expect((await call("GET", "/admin/stats", { token })).status).toBe(200);
  });

  it("signs in with a passkey and is answered the token", async () => {
    const user = await createUser(server.db);
    const authenticator = await softwarePasskey(user.id);
    const options = await call("POST", "/auth/passkey/login/options", { json: {} });
    expect(options.status).toBe(200);
    const token = expectSignedIn(
      await call("POST", "/auth/passkey/login", { json: { response: authenticator.sign(options.body.challenge) } }),
      user.id,
    );
    expect((await call("GET", "/auth/me", { token })).body.id).toBe(user.id);
  });

  it("still accepts return_token, which changes nothing", async () => {
    const user = await createUser(server.db);
    for (const return_token of [true, false]) {
      const login = await call("POST", "/auth/login", { json: { username: user.username, password: DEFAULT_PASSWORD, return_token } });
      expectSignedIn(login, user.id);
    }
  });
});

/**
 * A passkey of `userId` held in the test: a P-256 key whose public half is stored as the COSE key
 * a browser would have registered, and assertions signed as an authenticator signs them.
 */
async function softwarePasskey(userId: string) {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  // CBOR map {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
  const credentialId = randomBytes(16).toString("base64url");
  await server.db
    .insertInto("passkeys")
    .values({ user_id: userId, credential_id: credentialId, public_key: cose, counter: 0, name: "Test key" })
    .execute();
  const { rpId, origin } = server.deps.config.webauthn;
  let counter = 0;
  return {
    sign(challenge: string) {
      counter++;
      const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }));
      const counterBytes = Buffer.alloc(4);
      counterBytes.writeUInt32BE(counter);
      // rpIdHash, flags (user present and verified), signature counter.
      const authenticatorData = Buffer.concat([createHash("sha256").update(rpId).digest(), Buffer.from([0x05]), counterBytes]);
      const signature = createSign("sha256")
        .update(Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]))
        .sign(privateKey);
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: clientDataJSON.toString("base64url"),
          authenticatorData: authenticatorData.toString("base64url"),
          signature: signature.toString("base64url"),
        },
        clientExtensionResults: {},
      };
    },
  };
}
