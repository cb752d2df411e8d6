// Issue 28, item 2 (docs/security.md, Round 3): someone holding the password asks to move the
// account's email to their own mailbox. The owner's recovery (a new password, a reset, a second
// factor turned on or off, "sign out everywhere") must void that pending change, and the current
// address hears of the change when it is asked, with a link that stops it.
import { randomBytes } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCodeForStep, totpStep } from "../../server/auth/totp.ts";
import { createUser, loginClient, nextSecondFactorCode, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { linkToken, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

/** The owner (verified address) and, in another browser, someone who knows the password and asked to move the address. */
async function attackerAsksToMoveTheAddress(opts: { twoFactor?: boolean } = {}) {
  const owner = await createUser(server.db, { two_factor: opts.twoFactor });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", owner.id).execute();
  const ownerSession = await loginClient(server.url, owner);
  const attacker = await loginClient(server.url, owner);
  const attackerMailbox = `attacker.${randomBytes(3).toString("hex")}@example.net`;
  const asked = await attacker.post("/api/auth/change-email", { new_email: attackerMailbox, password: owner.password });
  expect(asked.status).toBe(200);
  const token = linkToken(await smtp.waitForMail(attackerMailbox, /Confirm your new email/), "email_change_token");
  return { owner, ownerSession, attacker, token };
}

async function expectLinkDead(owner: UserFixture, token: string) {
  const confirmed = await new ApiClient(server.url).post("/api/auth/confirm-email-change", { token });
  expect(confirmed).toMatchObject({ status: 422, body: { detail: "This email change link is invalid or has expired" } });
  const row = await server.db.selectFrom("users").select("email").where("id", "=", owner.id).executeTakeFirstOrThrow();
  expect(row.email).toBe(owner.email);
}

describe("a pending email change and the owner's recovery", () => {
  it("a password change voids it", async () => {
    const { owner, ownerSession, token } = await attackerAsksToMoveTheAddress();
    const changed = await ownerSession.post("/api/auth/change-password", { current_password: owner.password, new_password: "Owner-Changed-It-77" });
    expect(changed.status).toBe(200);
    await expectLinkDead(owner, token);
  });

  it("signing out everywhere else voids it", async () => {
    const { owner, ownerSession, attacker, token } = await attackerAsksToMoveTheAddress();
    expect((await ownerSession.post("/api/auth/sessions/revoke-others")).status).toBe(200);
    expect((await attacker.get("/api/auth/me")).status).toBe(401);
    await expectLinkDead(owner, token);
  });

  it("a password reset by email voids it", async () => {
    const { owner, token } = await attackerAsksToMoveTheAddress();
    const anon = new ApiClient(server.url);
    await anon.post("/api/auth/forgot-password", { email: owner.email });
    const reset = linkToken(await smtp.waitForMail(owner.email, /Reset your/), "reset_token");
    expect((await anon.post("/api/auth/reset-password", { token: reset, new_password: "Owner-Reset-It-77" })).status).toBe(200);
    await expectLinkDead(owner, token);
  });

  it("turning two-factor sign-in on voids it", async () => {
    const { owner, ownerSession, token } = await attackerAsksToMoveTheAddress();
    const setup = await ownerSession.post("/api/auth/2fa/setup");
    expect(setup.status).toBe(200);
    const code = totpCodeForStep(decodeBase32IgnorePadding(setup.body.secret as string), totpStep(new Date()));
    expect((await ownerSession.post("/api/auth/2fa/enable", { code })).status).toBe(200);
    await expectLinkDead(owner, token);
  });

  it("turning two-factor sign-in off voids it", async () => {
    const { owner, ownerSession, token } = await attackerAsksToMoveTheAddress({ twoFactor: true });
    const off = await ownerSession.post("/api/auth/2fa/disable", { password: owner.password, code: nextSecondFactorCode(owner) });
    expect(off.status).toBe(200);
    await expectLinkDead(owner, token);
  });
});

describe("the current address hears of a change when it is asked", () => {
  it("gets a notice naming the new address, whose link stops the change", async () => {
    const { owner, token } = await attackerAsksToMoveTheAddress();
    const notice = await smtp.waitForMail(owner.email, /email address is about to change/);
    expect(notice.text).toContain("example.net");
    const cancel = linkToken(notice, "email_change_cancel");
    const anon = new ApiClient(server.url);
    expect((await anon.post("/api/auth/cancel-email-change", { token: cancel })).body).toEqual({ success: true });
    await expectLinkDead(owner, token);
    // Spent: the same link stops nothing twice.
    expect((await anon.post("/api/auth/cancel-email-change", { token: cancel })).status).toBe(422);
  });

  it("the notice is a durable mail job, queued with the request on the queue of mail a person waits for", async () => {
    const owner = await createUser(server.db);
    const client = await loginClient(server.url, owner);
    await client.post("/api/auth/change-email", { new_email: `later.${randomBytes(3).toString("hex")}@example.net`, password: owner.password });
    const { rows } = await sql<{ kind: string }>`select data->>'kind' as kind from pgboss.job
      where name = 'email-now' and data->>'kind' like 'email-change%' and data->>'changeId' in
      (select id::text from email_changes where user_id = ${owner.id})`.execute(server.db);
    expect(rows.map((r) => r.kind).sort()).toEqual(["email-change", "email-change-requested"]);
  });
});
