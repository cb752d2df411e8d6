// Scorecard item 6: password-reset tokens, taken from the real email the app sends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let anon: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  anon = new ApiClient(server.url);
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

async function requestToken(user: UserFixture): Promise<string> {
  const before = smtp.messages.length;
  expect((await anon.post("/api/auth/forgot-password", { email: user.email })).status).toBe(200);
  const messages = await smtp.waitForMessages(before + 1);
  const mail = messages[messages.length - 1]!;
  expect(mail.to).toEqual([user.email]);
  const token = /reset_token=([a-z2-7]+)/.exec(mail.text)?.[1];
  expect(token).toBeDefined();
  return token!;
}

const reset = (token: string, new_password = "Granite-Willow-Sparrow-3") => anon.post("/api/auth/reset-password", { token, new_password });

describe("reset tokens", () => {
  it("20 parallel redemptions of one token: exactly one succeeds", async () => {
    const user = await createUser(server.db);
    const token = await requestToken(user);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => reset(token, `Granite-Willow-${i}-Sparrow`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    for (const r of results.filter((r) => r.status === 422)) expect(r.body.detail).toBe("Invalid or expired reset token");
    const winner = results.findIndex((r) => r.status === 200);
    const login = await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: `Granite-Willow-${winner}-Sparrow` });
    expect(login.status).toBe(200);
  });

  it("a newer request invalidates older tokens", async () => {
    const user = await createUser(server.db);
    const older = await requestToken(user);
    const newer = await requestToken(user);
    expect(newer).not.toBe(older);
    expect((await reset(older)).status).toBe(422);
    expect((await reset(newer)).status).toBe(200);
  });

  it("expires after 1 hour", async () => {
    const early = await requestToken(await createUser(server.db));
    const late = await requestToken(await createUser(server.db));
    server.clock.advance(59 * 60 * 1000);
    expect((await reset(early)).status).toBe(200);
    server.clock.advance(60 * 1000 + 1000);
    expect(await reset(late)).toMatchObject({ status: 422, body: { detail: "Invalid or expired reset token" } });
    server.clock.advance(-(60 * 60 * 1000 + 1000));
  });

  it("is stored only as its hash", async () => {
    const user = await createUser(server.db);
    const token = await requestToken(user);
    const rows = await server.db.selectFrom("password_reset_tokens").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
