import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashToken } from "../../server/auth/session.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let anon: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Portal <portal@example.com>" } });
  anon = new ApiClient(server.url);
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

const NEW_PASSWORD = "Copper-Lantern-Meadow-9";

function tokenFrom(mail: ReceivedMail): string {
  const link = /(http:\/\/\S+\/\?reset_token=([a-z2-7]+))/.exec(mail.text);
  if (!link) throw new Error(`no reset link in:\n${mail.text}`);
  expect(link[1]!.startsWith(`${server.url}/?reset_token=`)).toBe(true);
  expect(mail.html).toContain(`${server.url}/?reset_token=${link[2]}`);
  return link[2]!;
}

async function requestToken(email: string): Promise<string> {
  const before = smtp.messages.length;
  const res = await anon.post("/api/auth/forgot-password", { email });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ success: true });
  const [mail] = (await smtp.waitForMessages(before + 1)).slice(before);
  return tokenFrom(mail!);
}

describe("forgot password", () => {
  it("answers success for an unknown email and sends nothing", async () => {
    const res = await anon.post("/api/auth/forgot-password", { email: "nobody-here@example.com" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    // A known email in the same run proves mail is flowing; the unknown one must not have produced any.
    const user = await createUser(server.db);
    await requestToken(user.email);
    expect(smtp.messages.flatMap((m) => m.to)).toEqual([user.email]);
  });

  it("asks for an email with the spec's messages", async () => {
    expect((await anon.post("/api/auth/forgot-password", { email: "  " })).body).toEqual({ detail: "Please enter your email address" });
    expect((await anon.post("/api/auth/forgot-password", {})).body).toEqual({ detail: "Please enter your email address" });
    const bad = await anon.post("/api/auth/forgot-password", { email: "not-an-email" });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toBe("Please enter a valid email address");
  });

  it("sends one message, whose token resets the password exactly once and ends old sessions", async () => {
    const user = await createUser(server.db, { name: "Walter Skinner" });
    const oldSession = await loginClient(server.url, user);
    expect((await oldSession.get("/api/auth/me")).status).toBe(200);

    const token = await requestToken(user.email.toUpperCase());
    const [mail] = smtp.messages;
    expect(smtp.messages).toHaveLength(1);
    expect(mail!.to).toEqual([user.email]);
    expect(mail!.subject).toMatch(/Reset your .+ password/);
    // The address is not verified: the mail greets no one by the name the registrant chose.
    expect(mail!.text).not.toContain("Walter Skinner");
    expect(mail!.text).toContain("\nHello,\n");
    expect(mail!.html).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/\?reset_token=/);
    expect(token.length).toBeGreaterThanOrEqual(32);

    const stored = await server.db.selectFrom("password_reset_tokens").select(["token_hash", "expires_at"]).where("user_id", "=", user.id).execute();
    expect(stored.map((r) => r.token_hash)).toEqual([hashToken(token)]);
    const ttl = stored[0]!.expires_at.getTime() - server.clock.now().getTime();
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);

    const reset = await anon.post("/api/auth/reset-password", { token, new_password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    // What the Login form is filled in with next.
    expect(reset.body).toEqual({ success: true, login: user.username });
    expect(reset.headers.getSetCookie()).toEqual([]);

    const again = await anon.post("/api/auth/reset-password", { token, new_password: "Another-Fine-Password-3" });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ detail: "Invalid or expired reset token" });

    expect((await oldSession.get("/api/auth/me")).status).toBe(401);
    const oldLogin = await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: user.password });
    expect(oldLogin.status).toBe(401);
    const newLogin = await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: NEW_PASSWORD });
    expect(newLogin.status).toBe(200);
  });

  it("refuses an expired token", async () => {
    const user = await createUser(server.db);
    const token = await requestToken(user.email);
    server.clock.advance(60 * 60 * 1000 + 1000);
    try {
      const res = await anon.post("/api/auth/reset-password", { token, new_password: NEW_PASSWORD });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: "Invalid or expired reset token" });
    } finally {
      server.clock.advance(-(60 * 60 * 1000 + 1000));
    }
    const login = await new ApiClient(server.url).post("/api/auth/login", { username: user.username, password: user.password });
    expect(login.status).toBe(200);
  });

  it("invalidates an older token when a new one is requested", async () => {
    const user = await createUser(server.db);
    const first = await requestToken(user.email);
    const second = await requestToken(user.email);
    expect(second).not.toBe(first);
    expect((await anon.post("/api/auth/reset-password", { token: first, new_password: NEW_PASSWORD })).status).toBe(422);
    expect((await anon.post("/api/auth/reset-password", { token: second, new_password: NEW_PASSWORD })).status).toBe(200);
  });

  it("lets exactly one of 20 parallel redemptions succeed", async () => {
    const user = await createUser(server.db);
    const token = await requestToken(user.email);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => anon.post("/api/auth/reset-password", { token, new_password: `Parallel-Reset-${i}-Xq` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(19);
  });

  it("validates the new password and an unknown token with a detail", async () => {
    expect((await anon.post("/api/auth/reset-password", { token: "", new_password: NEW_PASSWORD })).body).toEqual({
      detail: "Please fill in all fields",
    });
    const short = await anon.post("/api/auth/reset-password", { token: "abc", new_password: "12345" });
    expect(short.body).toEqual({ detail: "Password must be at least 6 characters long" });
    const unknown = await anon.post("/api/auth/reset-password", { token: "a".repeat(32), new_password: NEW_PASSWORD });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ detail: "Invalid or expired reset token" });

    const user = await createUser(server.db);
    const token = await requestToken(user.email);
    const common = await anon.post("/api/auth/reset-password", { token, new_password: "password1" });
    expect(common.status).toBe(422);
    expect(common.body.detail).toMatch(/too common/);
    // A refused password does not use up the token.
    expect((await anon.post("/api/auth/reset-password", { token, new_password: NEW_PASSWORD })).status).toBe(200);
  });

  it("never writes the token to the log", async () => {
    const user = await createUser(server.db);
    const token = await requestToken(user.email);
    await anon.post("/api/auth/reset-password", { token, new_password: NEW_PASSWORD });
    expect(server.logs.join("\n")).not.toContain(token);
  });
});

describe("without SMTP_URL", () => {
  it("writes the message to DATA_DIR/outbox and logs one line without the token", async () => {
    const local = await startTestServer();
    try {
      const user = await createUser(local.db);
      const res = await new ApiClient(local.url).post("/api/auth/forgot-password", { email: user.email });
      expect(res.status).toBe(200);
      const outbox = path.join(local.dataDir, "outbox");
      await expect.poll(() => local.logs.some((l) => l.includes("mail written to outbox")), { timeout: 15_000 }).toBe(true);
      const files = fs.readdirSync(outbox);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const eml = fs.readFileSync(path.join(outbox, files[0]!), "utf8");
      expect(eml).toMatch(/^To: /m);
      expect(eml).toContain("multipart/alternative");
      const token = await local.db.selectFrom("password_reset_tokens").select("token_hash").where("user_id", "=", user.id).executeTakeFirstOrThrow();
      expect(token.token_hash).toMatch(/^[0-9a-f]{64}$/);
      const mailLines = local.logs.filter((l) => l.includes("mail written to outbox"));
      expect(mailLines).toHaveLength(1);
      expect(mailLines[0]).not.toMatch(/reset_token/);
    } finally {
      await local.close();
    }
  });
});
