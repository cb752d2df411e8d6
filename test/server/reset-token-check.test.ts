/*
 * Checking a reset link as it opens (auth.checkResetToken): says whether the token still works
 * without spending it, and is counted like a reset request. Plus the reset email's layout: the
 * link and the token each stand on a line of their own in the HTML.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateToken, hashToken } from "../../server/auth/session.ts";
import { MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR } from "../../server/auth/rate-limit.ts";
import { createUser } from "../helpers/factories.ts";
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

async function check(token: string): Promise<{ status: number; valid?: boolean; message?: string }> {
  const res = await anon.request("POST", "/trpc/auth.checkResetToken", {
    body: JSON.stringify({ json: { token } }),
    headers: { "Content-Type": "application/json" },
  });
  const body = res.body as { result?: { data?: { json?: { valid: boolean } } }; error?: { json?: { message?: string } } };
  return { status: res.status, valid: body.result?.data?.json?.valid, message: body.error?.json?.message };
}

async function storedToken(userId: string, expiresInMs = 60 * 60 * 1000): Promise<string> {
  const token = generateToken();
  const now = server.clock.now();
  await server.db
    .insertInto("password_reset_tokens")
    .values({ token_hash: hashToken(token), user_id: userId, expires_at: new Date(now.getTime() + expiresInMs), created_at: now })
    .execute();
  return token;
}

describe("auth.checkResetToken", () => {
  it("says a live token is valid without spending it, and an unknown, expired or spent one is not", async () => {
    const user = await createUser(server.db);
    const token = await storedToken(user.id);
    expect(await check(token)).toEqual({ status: 200, valid: true, message: undefined });
    expect(await check(token)).toMatchObject({ valid: true });
    // Still redeemable after being checked.
    const reset = await anon.post("/api/auth/reset-password", { token, new_password: "Copper-Lantern-Meadow-9" });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, login: user.username });
    expect(await check(token)).toMatchObject({ valid: false });

    expect(await check(generateToken())).toMatchObject({ status: 200, valid: false });
    const expired = await storedToken((await createUser(server.db)).id, -1000);
    expect(await check(expired)).toMatchObject({ valid: false });
  });

  it("limits how often one link can be checked", async () => {
    const token = generateToken();
    for (let i = 0; i < MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR; i++) expect((await check(token)).status).toBe(200);
    const refused = await check(token);
    expect(refused.status).toBe(429);
    expect(refused.valid).toBeUndefined();
  });
});

describe("the reset email", () => {
  it("puts the link and the token each on a line of their own in the HTML", async () => {
    const user = await createUser(server.db, { email: "layout@example.com" });
    expect((await anon.post("/api/auth/forgot-password", { email: user.email })).status).toBe(200);
    const [mail] = await smtp.waitForMessages(1);
    const token = /\?reset_token=([a-z2-7]+)/.exec(mail!.text)![1]!;
    const link = `${server.url}/?reset_token=${token}`;
    expect(mail!.html).toMatch(new RegExp(`<p[^>]*>${link.replace(/[.?/]/g, "\\$&")}</p>`));
    expect(mail!.html).toContain(`Forgot Password dialog:<br>${token}</p>`);
    expect(mail!.text).toContain(`Forgot Password dialog:\n${token}\n`);
  });
});
