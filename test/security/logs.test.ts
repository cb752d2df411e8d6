// Scorecard item 10: no password, session token, reset token or sign-in code in the logs. test/setup.ts
// checks the logs of every server of every test file; this file drives the secret-bearing flows at
// the most verbose level and checks the checker itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger.ts";
import { createUser } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { findSecretsInLogs } from "./log-secrets.ts";

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, LOG_LEVEL: "trace" } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

describe("logs", () => {
  it("hold none of the secrets of sign-in, reset and logout", async () => {
    const password = "Velvet-Quarry-Comet-81";
    const newPassword = "Amber-Tundra-Lighthouse-6";
    const user = await createUser(server.db, { password });
    const client = new ApiClient(server.url);
    const login = await client.post("/api/auth/login", { username: user.username, password });
    const sessionToken: string = login.body.session_token;
    await client.post("/api/auth/login", { username: user.username, password: "Wrong-Velvet-1" });
    await client.get("/api/auth/me");
    await new ApiClient(server.url).post("/api/auth/forgot-password", { email: user.email });
    const mail = (await smtp.waitForMessages(1))[0]!;
    const resetToken = /reset_token=([a-z2-7]+)/.exec(mail.text)![1]!;
    await new ApiClient(server.url).post("/api/auth/reset-password", { token: resetToken, new_password: newPassword });
    await new ApiClient(server.url).post("/api/auth/profile", { session_id: "abcdefghijklmnopqrstuvwxyz234567" });
    await new ApiClient(server.url).get(`/api/auth/google/callback?code=oauth-code-${sessionToken.slice(0, 8)}&state=x`);
    const bearer = new ApiClient(server.url);
    bearer.bearer = sessionToken;
    await bearer.get("/api/auth/me");
    await client.post("/api/auth/logout");

    expect(server.logs.length).toBeGreaterThan(0);
    expect(findSecretsInLogs(server.logs, [password, newPassword, sessionToken, resetToken, `oauth-code-${sessionToken.slice(0, 8)}`])).toEqual([]);
  });

  it("keep error codes (SQLSTATE, errno) and redact OAuth tokens, also inside an error's cause", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => lines.push(line) });
    logger.error({ err: Object.assign(new Error("duplicate key"), { code: "23505" }) }, "insert failed");
    logger.warn({ err: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }, "database down");
    logger.info(
      {
        access_token: "at-top",
        id_token: "idt-top",
        refresh_token: "rt-top",
        tokens: { access_token: "at-nested", id_token: "idt-nested", refresh_token: "rt-nested" },
      },
      "tokens",
    );
    const cause = {
      access_token: "at-cause",
      id_token: "idt-cause",
      refresh_token: "rt-cause",
      token: "tk-cause",
      password: "pw-cause",
      session_token: "st-cause",
    };
    logger.error({ err: Object.assign(new Error("token exchange failed"), { cause }) }, "oauth");
    logger.error({ err: new Error("token exchange failed", { cause: Object.assign(new Error("inner"), cause) }) }, "oauth");

    expect(JSON.parse(lines[0]!).err.code).toBe("23505");
    expect(JSON.parse(lines[1]!).err.code).toBe("ECONNREFUSED");
    const all = lines.join("\n");
    for (const secret of [...Object.values(cause), "at-top", "idt-top", "rt-top", "at-nested", "idt-nested", "rt-nested"]) {
      expect(all).not.toContain(secret);
    }
    expect(findSecretsInLogs(lines)).toEqual([]);
  });

  it("the checker finds a secret that does reach a log line", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => lines.push(line) });
    logger.info({ note: "session abcdefghijklmnopqrstuvwxyz234567" }, "leak");
    logger.info({ url: "/api/auth/google/callback?code=4/0Ab" }, "leak");
    logger.info({ password: "Velvet-Quarry-Comet-81", nested: { token: "x" } }, "redacted");
    logger.info({ code: "4/0AbCdEf" }, "leak");
    const found = findSecretsInLogs(lines, ["Velvet-Quarry-Comet-81"]);
    expect(found).toHaveLength(3);
    expect(lines[2]).toContain("[redacted]");
  });
});
