// Issue 28, items 1 and 6 (docs/security.md, Round 3): someone registers a future client's address
// (it stays unverified) and sets up everything that could outlive the owner's claim: a passkey, a
// second factor, a trusted browser, a pending email change to their own mailbox, reset and
// verification links. Then the owner proves the mailbox: by Google, by a reset link, by the firm's
// invitation. Each proof must leave the squatter nothing.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../server/auth/session.ts";
import { findOrCreateGoogleUser, googleSecondStep } from "../../server/domains/auth/external-sign-in.ts";
import { createUser, enrolSecondFactor, loginClient, type UserFixture } from "../helpers/factories.ts";
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

type Squat = { squatter: UserFixture; session: ApiClient; emailChangeToken: string; ownerEmail: string; trustedBrowsers: string[] };

/** The squatter's whole set-up on the owner's address, as far as the API lets it go. */
async function squatOwnerAddress(): Promise<Squat> {
  const ownerEmail = `owner.${randomBytes(3).toString("hex")}@example.com`;
  const squatter = await createUser(server.db, { email: ownerEmail, name: "Not The Owner" });
  const session = await loginClient(server.url, squatter);
  // A passkey (as the registration ceremony would leave it) and an authenticator app with backup codes.
  await server.db
    .insertInto("passkeys")
    .values({
      user_id: squatter.id,
      credential_id: randomBytes(16).toString("base64url"),
      public_key: randomBytes(77),
      counter: 0,
      name: "Squatter key",
    })
    .execute();
  await enrolSecondFactor(server.db, squatter.id);
  // A change of address to the squatter's own mailbox, its link in hand.
  const squatterMailbox = `squatter.${randomBytes(3).toString("hex")}@example.net`;
  const asked = await session.post("/api/auth/change-email", { new_email: squatterMailbox, password: squatter.password });
  expect(asked.status).toBe(200);
  const emailChangeToken = linkToken(await smtp.waitForMail(squatterMailbox, /Confirm your new email/), "email_change_token");
  // Reset and verification links the squatter could have made (and read, had they the mailbox).
  const now = new Date();
  const later = new Date(now.getTime() + 60 * 60 * 1000);
  await server.db
    .insertInto("password_reset_tokens")
    .values({ token_hash: hashToken(`reset-${ownerEmail}`), user_id: squatter.id, expires_at: later, created_at: now })
    .execute();
  await server.db
    .insertInto("email_verification_tokens")
    .values({ token_hash: hashToken(`verify-${ownerEmail}`), user_id: squatter.id, email: ownerEmail, expires_at: later, created_at: now })
    .execute();
  const trusted = await server.db.selectFrom("trusted_devices").select("token_hash").where("user_id", "=", squatter.id).execute();
  expect(trusted).toHaveLength(1);
  return { squatter, session, emailChangeToken, ownerEmail, trustedBrowsers: trusted.map((t) => t.token_hash) };
}

/** Nothing the squatter set up is left on the account, and their links and session are dead. */
async function expectNothingLeft({ squatter, session, emailChangeToken, trustedBrowsers }: Squat) {
  const userId = squatter.id;
  const left = async (table: "passkeys" | "totp_credentials" | "backup_codes" | "password_reset_tokens" | "email_verification_tokens") =>
    (await server.db.selectFrom(table).select("user_id").where("user_id", "=", userId).execute()).length;
  // The owner's own browser may be trusted by now (a sign-in trusts it); the squatter's is not.
  const squattersBrowser = await server.db.selectFrom("trusted_devices").select("user_id").where("token_hash", "in", trustedBrowsers).execute();
  expect({
    passkeys: await left("passkeys"),
    totp: await left("totp_credentials"),
    backupCodes: await left("backup_codes"),
    trustedBrowsers: squattersBrowser.length,
    resetLinks: await left("password_reset_tokens"),
    verificationLinks: await left("email_verification_tokens"),
  }).toEqual({ passkeys: 0, totp: 0, backupCodes: 0, trustedBrowsers: 0, resetLinks: 0, verificationLinks: 0 });
  const pending = await server.db.selectFrom("email_changes").select("id").where("user_id", "=", userId).where("confirmed_at", "is", null).execute();
  expect(pending).toEqual([]);
  expect((await session.get("/api/auth/me")).status).toBe(401);
  // The squatter's link to move the address to their mailbox no longer works.
  const moved = await new ApiClient(server.url).post("/api/auth/confirm-email-change", { token: emailChangeToken });
  expect(moved.status).toBe(422);
  const row = await server.db.selectFrom("users").select(["email", "email_verified_at"]).where("id", "=", userId).executeTakeFirstOrThrow();
  expect(row.email_verified_at).not.toBeNull();
  // The squatter's password no longer signs in.
  const login = await new ApiClient(server.url).post("/api/auth/login", { username: squatter.username, password: squatter.password });
  expect(login.status).toBe(401);
  return row;
}

describe("a squatted, unverified account claimed by a proof of the mailbox", () => {
  it("Google sign-in voids the squatter's passkey, second factor, trusted browser, pending email change, links and sessions", async () => {
    const squat = await squatOwnerAddress();
    const user = await findOrCreateGoogleUser(server.db, {
      subject: `sub-${randomBytes(4).toString("hex")}`,
      email: squat.ownerEmail,
      name: "The Owner",
    });
    expect(user.id).toBe(squat.squatter.id);
    const row = await expectNothingLeft(squat);
    expect(row.email).toBe(squat.ownerEmail);
    // The owner is not stopped at a code prompt for the squatter's authenticator app.
    expect(await googleSecondStep(server.db, user, "browser-secret", new Date())).toBeNull();
  });

  it("a password reset by email voids the same, and the owner signs in with the new password alone", async () => {
    const squat = await squatOwnerAddress();
    const anon = new ApiClient(server.url);
    expect((await anon.post("/api/auth/forgot-password", { email: squat.ownerEmail })).status).toBe(200);
    const token = linkToken(await smtp.waitForMail(squat.ownerEmail, /Reset your/), "reset_token");
    const reset = await anon.post("/api/auth/reset-password", { token, new_password: "Owner-Takes-Back-1234" });
    expect(reset.status).toBe(200);
    await expectNothingLeft(squat);
    const login = await anon.post("/api/auth/login", { username: squat.ownerEmail, password: "Owner-Takes-Back-1234" });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ success: true, user: { id: squat.squatter.id } });
  });

  it("the firm's invitation to the address is sent (not refused), and accepting it claims the account", async () => {
    const squat = await squatOwnerAddress();
    const admin = await createUser(server.db, { is_admin: true });
    const firm = await loginClient(server.url, admin, "admin");
    const invited = await firm.post("/api/admin/invitations", { name: "The Owner", email: squat.ownerEmail });
    expect(invited.status).toBe(201);
    const token = linkToken(await smtp.waitForMail(squat.ownerEmail, /invit/i), "invite");
    const owner = new ApiClient(server.url);
    const username = `owner_${randomBytes(3).toString("hex")}`;
    const accepted = await owner.post("/api/auth/invitations/accept", { token, username, name: "The Owner", password: "Owner-Invited-1234" });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ success: true, user: { id: squat.squatter.id, username, name: "The Owner", email_verified: true } });
    await expectNothingLeft(squat);
    expect((await owner.get("/api/auth/me")).body).toMatchObject({ id: squat.squatter.id, username });
  });

  it("an invitation still refuses an address whose account is verified", async () => {
    const admin = await createUser(server.db, { is_admin: true });
    const firm = await loginClient(server.url, admin, "admin");
    const client = await createUser(server.db);
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", client.id).execute();
    const invited = await firm.post("/api/admin/invitations", { name: "Known", email: client.email });
    expect(invited).toMatchObject({ status: 409, body: { detail: "An account with this email already exists" } });
  });
});
