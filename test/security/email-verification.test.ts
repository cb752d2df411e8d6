// Issue 23, item 9: a registrant's chosen name went into the firm's password-reset email to an
// address nobody had verified, so anyone could have the firm mail their words to anyone. Until an
// address is verified, the firm's mail to it carries no text the registrant chose; registration
// sends a single-use link valid for 24 hours.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR } from "../../server/auth/rate-limit.ts";
import { findOrCreateGoogleUser } from "../../server/domains/auth/external-sign-in.ts";
import { createUser } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const ATTACK_NAME = "client. URGENT: your IRS refund is on hold, confirm at http://evil.example";
const PASSWORD = "Harbor-Quill-Meadow-27";
const INVALID_LINK = { status: 422, body: { detail: "This verification link is invalid or has expired" } };

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

/** Waits for the next mail to `to` whose subject starts with `subject`, arriving after `after` messages. */
async function nextMail(to: string, subject: string, after: number): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = smtp.messages.slice(after).find((m) => m.to.includes(to) && m.subject.startsWith(subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail to ${to}; got: ${smtp.messages.map((m) => m.subject).join(", ")}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const mailsTo = (to: string, subject: string) => smtp.messages.filter((m) => m.to.includes(to) && m.subject.startsWith(subject));

function verifyTokenFrom(mail: ReceivedMail): string {
  const link = new RegExp(`${server.url}/\\?verify_token=([a-z2-7]+)`).exec(mail.text);
  if (!link) throw new Error(`no verification link in:\n${mail.text}`);
  expect(mail.html).toContain(link[0]);
  return link[1]!;
}

/** The first line after the heading: the salutation. */
const salutation = (mail: ReceivedMail) => mail.text.split("\n")[2];

async function register(name = "Dana Scully") {
  const username = `reg_${randomBytes(4).toString("hex")}`;
  const email = `${username}@example.com`;
  const before = smtp.messages.length;
  const res = await anon.post("/api/auth/register", { username, email, name, password: PASSWORD });
  expect(res).toMatchObject({ status: 200, body: { success: true } });
  expect(Object.keys(res.body)).toEqual(["success"]);
  return { username, email, name, before };
}

async function signIn(username: string): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  expect((await client.post("/api/auth/login", { username, password: PASSWORD })).status).toBe(200);
  return client;
}

async function requestReset(email: string): Promise<ReceivedMail> {
  const before = smtp.messages.length;
  expect((await anon.post("/api/auth/forgot-password", { email })).status).toBe(200);
  return nextMail(email, "Reset your", before);
}

const verify = (token: string) => anon.post("/api/auth/verify-email", { token });

describe("mail to an unverified address", () => {
  it("the attack replayed: the reset email carries none of the registrant's name and starts 'Hello,'", async () => {
    const { email } = await register(ATTACK_NAME);
    const mail = await requestReset(email);
    for (const part of [mail.subject, mail.text, mail.html]) {
      for (const fragment of ["URGENT", "IRS refund", "evil.example", "client."]) expect(part).not.toContain(fragment);
    }
    expect(salutation(mail)).toBe("Hello,");
    expect(mail.html).toContain(">Hello,</p>");
  });

  it("the verification email carries nothing the registrant chose either", async () => {
    const { email, username, before } = await register(ATTACK_NAME);
    const mail = await nextMail(email, "Verify your email", before);
    for (const part of [mail.subject, mail.text, mail.html]) {
      for (const fragment of ["URGENT", "evil.example", username]) expect(part).not.toContain(fragment);
    }
    expect(salutation(mail)).toBe("Hello,");
  });

  it("once the address is verified, the reset email greets the user by name", async () => {
    const { email, name, before } = await register();
    expect((await verify(verifyTokenFrom(await nextMail(email, "Verify your email", before)))).status).toBe(200);
    expect(salutation(await requestReset(email))).toBe(`Hello ${name},`);
  });
});

describe("the verification link", () => {
  it("registration sends exactly one, to the registered address; it verifies once", async () => {
    const { username, email, before } = await register();
    const token = verifyTokenFrom(await nextMail(email, "Verify your email", before));
    // Signing in does not wait for verification; the user object says where it stands.
    const client = await signIn(username);
    expect((await client.get("/api/auth/me")).body).toMatchObject({ email, email_verified: false });

    expect(await verify(token)).toMatchObject({ status: 200, body: { success: true } });
    expect((await client.get("/api/auth/me")).body).toMatchObject({ email, email_verified: true });
    expect(await verify(token)).toMatchObject(INVALID_LINK);
    expect(mailsTo(email, "Verify your email")).toHaveLength(1);
  });

  it("expires after 24 hours (server clock)", async () => {
    const early = await register();
    const late = await register();
    const earlyToken = verifyTokenFrom(await nextMail(early.email, "Verify your email", early.before));
    const lateToken = verifyTokenFrom(await nextMail(late.email, "Verify your email", late.before));
    try {
      server.clock.advance(24 * 60 * 60 * 1000 - 60_000);
      expect((await verify(earlyToken)).status).toBe(200);
      server.clock.advance(2 * 60_000);
      expect(await verify(lateToken)).toMatchObject(INVALID_LINK);
    } finally {
      server.clock.advance(-(24 * 60 * 60 * 1000 + 60_000));
    }
    const me = await (await signIn(late.username)).get("/api/auth/me");
    expect(me.body.email_verified).toBe(false);
  });

  it("is stored only as its hash, and verifies only the address it was sent to", async () => {
    const { username, email, before } = await register();
    const token = verifyTokenFrom(await nextMail(email, "Verify your email", before));
    const rows = await server.db.selectFrom("email_verification_tokens").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    await server.db
      .updateTable("users")
      .set({ email: `moved-${email}` })
      .where("username", "=", username)
      .execute();
    expect(await verify(token)).toMatchObject(INVALID_LINK);
    const user = await server.db.selectFrom("users").select("email_verified_at").where("username", "=", username).executeTakeFirstOrThrow();
    expect(user.email_verified_at).toBeNull();
  });

  it("answers a clear 4xx to a made-up, empty or oversized token", async () => {
    expect(await verify("a".repeat(32))).toMatchObject(INVALID_LINK);
    expect(await verify("")).toMatchObject(INVALID_LINK);
    expect(await verify("a".repeat(201))).toMatchObject(INVALID_LINK);
    expect(await anon.post("/api/auth/verify-email", {})).toMatchObject(INVALID_LINK);
  });
});

describe("resending the link", () => {
  it("needs a signed-in user", async () => {
    expect(await anon.post("/api/auth/resend-verification")).toMatchObject({ status: 401, body: { detail: "Not authenticated" } });
  });

  it("sends a new link that replaces the old one, at most 5 an hour per user", async () => {
    const { username, email, before } = await register();
    const first = verifyTokenFrom(await nextMail(email, "Verify your email", before));
    const client = await signIn(username);

    let newest = first;
    for (let i = 0; i < MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR; i++) {
      const sentBefore = smtp.messages.length;
      expect(await client.post("/api/auth/resend-verification")).toMatchObject({ status: 200, body: { success: true } });
      newest = verifyTokenFrom(await nextMail(email, "Verify your email", sentBefore));
    }
    const refused = await client.post("/api/auth/resend-verification");
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many verification emails\. Please try again in \d+ minutes?\.$/);
    await new Promise((r) => setTimeout(r, 200));
    expect(mailsTo(email, "Verify your email")).toHaveLength(1 + MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR);

    expect(await verify(first)).toMatchObject(INVALID_LINK);
    expect((await verify(newest)).status).toBe(200);
  });

  it("refuses once the address is verified", async () => {
    const { username, email, before } = await register();
    expect((await verify(verifyTokenFrom(await nextMail(email, "Verify your email", before)))).status).toBe(200);
    const res = await (await signIn(username)).post("/api/auth/resend-verification");
    expect(res).toMatchObject({ status: 409, body: { detail: "Your email is already verified" } });
  });
});

describe("other proofs of the address", () => {
  it("redeeming a password reset link verifies the address", async () => {
    const user = await createUser(server.db);
    const token = /reset_token=([a-z2-7]+)/.exec((await requestReset(user.email)).text)![1]!;
    expect((await anon.post("/api/auth/reset-password", { token, new_password: PASSWORD })).status).toBe(200);
    const me = await (await signIn(user.username!)).get("/api/auth/me");
    expect(me.body.email_verified).toBe(true);
  });

  it("Google sign-in verifies the accounts it creates and links", async () => {
    const created = await findOrCreateGoogleUser(server.db, {
      subject: `sub-${randomBytes(4).toString("hex")}`,
      email: `g-${randomBytes(4).toString("hex")}@example.com`,
      name: "Gail",
    });
    expect(created.email_verified).toBe(true);
    const local = await createUser(server.db);
    expect(local.email_verified).toBe(false);
    const linked = await findOrCreateGoogleUser(server.db, { subject: `sub-${randomBytes(4).toString("hex")}`, email: local.email, name: null });
    expect(linked).toMatchObject({ id: local.id, email_verified: true });
    const row = await server.db.selectFrom("users").select("email_verified_at").where("id", "=", local.id).executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeInstanceOf(Date);
  });
});
