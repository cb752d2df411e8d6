import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../server/auth/session.ts";
import { createUser, DEFAULT_PASSWORD, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { oidcEnv, startOidcProvider, type TestAccount, type TestOidcProvider } from "../helpers/oidc-provider.ts";
import { freePort, startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { invitationMail } from "../../server/domains/invitations/mail.ts";

const INVITE_ONLY = "Registration is by invitation only";
const NEW_PASSWORD = "Copper-Lantern-Meadow-9";

let smtp: TestSmtpServer;
let server: TestServer;
let provider: TestOidcProvider;
let admin: UserFixture;
let adminApi: ApiClient;

beforeAll(async () => {
  const providerPort = await freePort();
  smtp = await startSmtpServer();
  // Behind a (pretend) proxy, so each visitor has an address of its own and the registration limit
  // (20 an hour per address) counts each test's visitors apart.
  server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1", ...oidcEnv(providerPort) } });
  provider = await startOidcProvider({ port: providerPort, redirectUri: `${server.url}/api/auth/google/callback` });
  admin = await createUser(server.db, { is_admin: true });
  adminApi = await loginClient(server.url, admin, "admin");
});
afterAll(async () => {
  await provider?.close();
  await server?.close();
  await smtp?.stop();
});

/** A visitor from an address of its own. */
const visitor = (address = `10.${[0, 0, 0].map(() => randomBytes(1)[0]! % 250).join(".")}`) =>
  new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": address });
const uniqueEmail = (what: string) => `${what}.${randomBytes(4).toString("hex")}@example.com`;
const uniqueName = (what: string) => `${what}_${randomBytes(3).toString("hex")}`;

/** The token of the newest invitation mail to `email` that is not among `seen`. */
async function invitationToken(email: string, seen: string[] = []): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = smtp.messages.filter((m) => m.to.includes(email) && /invitation/i.test(m.subject));
    const tokens = mails.map(tokenOf).filter((t) => !seen.includes(t));
    if (tokens.length > 0) return tokens.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no new invitation mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tokenOf(mail: ReceivedMail): string {
  const link = new RegExp(`${server.url.replace(/[.]/g, "\\.")}/\\?invite=([a-z2-7]+)`).exec(mail.text);
  if (!link) throw new Error(`no invitation link in:\n${mail.text}`);
  expect(mail.html).toContain(`${server.url}/?invite=${link[1]}`);
  return link[1]!;
}

async function invite(name: string, email: string) {
  const res = await adminApi.post("/api/admin/invitations", { name, email });
  expect(res.status, res.text).toBe(201);
  return { invitation: res.body, token: await invitationToken(email) };
}

async function accept(token: string, fields: Partial<{ username: string; name: string; password: string }> = {}, client = visitor()) {
  const res = await client.post("/api/auth/invitations/accept", {
    token,
    username: uniqueName("invited"),
    name: "Invited Client",
    password: NEW_PASSWORD,
    ...fields,
  });
  return { res, client };
}

async function activityOf(action: string, targetId: string) {
  return server.db
    .selectFrom("activity_events")
    .selectAll()
    .select("account_id as client_id")
    .where("action", "=", action)
    .where("target_id", "=", targetId)
    .execute();
}

async function setRegistration(registration: "open" | "invite_only") {
  const res = await adminApi.put("/api/admin/registration", { registration });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ registration });
}

describe("inviting a client", () => {
  it("is for admins only", async () => {
    const client = await createUser(server.db);
    const clientApi = await loginClient(server.url, client);
    const body = { name: "Nobody", email: uniqueEmail("nobody") };
    expect((await visitor().post("/api/admin/invitations", body)).status).toBe(401);
    expect((await clientApi.post("/api/admin/invitations", body)).status).toBe(403);
    expect((await clientApi.get("/api/admin/invitations")).status).toBe(403);
    expect((await clientApi.put("/api/admin/registration", { registration: "invite_only" })).status).toBe(403);
    const { invitation } = await invite("Owned", uniqueEmail("owned"));
    expect((await clientApi.post(`/api/admin/invitations/${invitation.id}/resend`)).status).toBe(403);
    expect((await clientApi.delete(`/api/admin/invitations/${invitation.id}`)).status).toBe(403);
  });

  it("emails a single-use link to /?invite=, stores only the token's hash, lists it as pending and records it", async () => {
    const email = uniqueEmail("Dana.Invited");
    const { invitation, token } = await invite("Dana Invited", email);
    expect(invitation).toMatchObject({ name: "Dana Invited", email, status: "pending", accepted_at: null, invited_by: admin.username });
    const days = (new Date(invitation.expires_at).getTime() - new Date(invitation.created_at).getTime()) / 86_400_000;
    expect(days).toBe(7);

    const mail = smtp.messages.find((m) => m.to.includes(email))!;
    expect(mail.subject).toMatch(/invitation/i);
    expect(mail.text).toContain("Hello Dana Invited,");
    expect(mail.text).toContain("expires in 7 days");

    const row = await server.db.selectFrom("invitations").selectAll().where("id", "=", invitation.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.created_by).toBe(admin.id);
    await expect
      .poll(
        async () =>
          (await server.db.selectFrom("invitations").select("last_sent_at").where("id", "=", invitation.id).executeTakeFirstOrThrow()).last_sent_at,
      )
      .not.toBeNull();

    const list = await adminApi.get("/api/admin/invitations");
    expect(list.status).toBe(200);
    expect(list.body.find((i: { id: string }) => i.id === invitation.id)).toMatchObject({ status: "pending", email });
    const [event] = await activityOf("invitation.create", invitation.id);
    expect(event).toMatchObject({ actor_id: admin.id, actor_role: "admin" });
    expect(event!.detail).toMatchObject({ email, name: "Dana Invited" });
  });

  it("refuses an address with a verified account or a pending invitation (409), and bad input (422)", async () => {
    const client = await createUser(server.db);
    // An unverified account is claimed by accepting instead (test/security/account-takeover.test.ts).
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", client.id).execute();
    const taken = await adminApi.post("/api/admin/invitations", { name: "Has Account", email: client.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe("An account with this email already exists");

    const email = uniqueEmail("twice");
    await invite("Twice", email);
    const again = await adminApi.post("/api/admin/invitations", { name: "Twice Again", email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("This email already has a pending invitation: resend it instead");

    const bad = await adminApi.post("/api/admin/invitations", { name: "Bad", email: "not-an-address" });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toBe("Please enter a valid email address");
    expect((await adminApi.post("/api/admin/invitations", { name: " ", email: uniqueEmail("x") })).status).toBe(422);
  });
});

describe("accepting an invitation", () => {
  it("shows whom the link is for, then makes the account with registration's rules, signs in, and works once", async () => {
    const email = uniqueEmail("erin");
    const { invitation, token } = await invite("Erin Invited", email);

    const peek = await visitor().post("/api/auth/invitations/check", { token });
    expect(peek.status).toBe(200);
    expect(peek.body).toMatchObject({ name: "Erin Invited", email });
    const unknown = await visitor().post("/api/auth/invitations/check", { token: "a".repeat(32) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/not valid/);

    // Registration's rules and messages.
    expect((await accept(token, { password: "abc" })).res.body.detail).toBe("Password must be at least 6 characters long");
    expect((await accept(token, { username: "no spaces" })).res.status).toBe(422);
    expect((await accept(token, { password: "password123" })).res.status).toBe(422);
    const existing = await createUser(server.db);
    const clash = await accept(token, { username: existing.username!.toUpperCase() });
    expect(clash.res.status).toBe(409);
    expect(clash.res.body.detail).toBe("Username already exists");

    const username = uniqueName("erin");
    const { res, client } = await accept(token, { username, name: "Erin Chosen" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.user).toMatchObject({ username, email, name: "Erin Chosen", email_verified: true, is_admin: false });
    const me = await client.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(username);
    // The password works for a later login too.
    expect((await loginClient(server.url, { username, password: NEW_PASSWORD })).cookies.size).toBeGreaterThan(0);

    const again = await accept(token);
    expect(again.res.status).toBe(409);
    expect(again.res.body.detail).toBe("This invitation has already been used. Log in with the account it made.");
    expect((await visitor().post("/api/auth/invitations/check", { token })).status).toBe(409);

    const list = await adminApi.get("/api/admin/invitations");
    expect(list.body.find((i: { id: string }) => i.id === invitation.id)).toMatchObject({ status: "accepted" });
    const row = await server.db.selectFrom("invitations").select(["accepted_user_id"]).where("id", "=", invitation.id).executeTakeFirstOrThrow();
    expect(row.accepted_user_id).toBe(res.body.user.id);
    const [event] = await activityOf("invitation.accept", invitation.id);
    expect(event).toMatchObject({ client_id: res.body.user.id, actor_id: res.body.user.id, actor_role: "client" });
    // The resend and revoke of an accepted invitation are refused.
    expect((await adminApi.post(`/api/admin/invitations/${invitation.id}/resend`)).status).toBe(409);
    expect((await adminApi.delete(`/api/admin/invitations/${invitation.id}`)).status).toBe(409);
  });

  it("counts link checks and acceptances as registrations from the address (20 an hour)", async () => {
    const address = visitor("203.0.113.77");
    for (let i = 0; i < 20; i++) expect((await address.post("/api/auth/invitations/check", { token: "b".repeat(32) })).status).toBe(404);
    const limited = await address.post("/api/auth/invitations/check", { token: "b".repeat(32) });
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/^Too many registrations/);
    expect(
      (await address.post("/api/auth/invitations/accept", { token: "b".repeat(32), username: "someone", name: "Some One", password: NEW_PASSWORD }))
        .status,
    ).toBe(429);
  });

  it("when the firm requires two-factor sign-in, the new client enrols before any session", async () => {
    expect((await adminApi.put("/api/admin/security-settings", { require_client_two_factor: true })).status).toBe(200);
    try {
      const { token } = await invite("Two Factor", uniqueEmail("twofactor"));
      const { res, client } = await accept(token);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ two_factor_setup_required: true, challenge: expect.any(String) });
      expect((await client.get("/api/auth/me")).status).toBe(401);
    } finally {
      await adminApi.put("/api/admin/security-settings", { require_client_two_factor: false });
    }
  });

  it("of two acceptances at once, exactly one makes an account", async () => {
    const email = uniqueEmail("race");
    const { token } = await invite("Race", email);
    const results = await Promise.all([accept(token), accept(token), accept(token)]);
    expect(results.map((r) => r.res.status).sort()).toEqual([201, 409, 409]);
    expect(
      await server.db
        .selectFrom("users")
        .select("id")
        .where(sql<string>`lower(email)`, "=", email.toLowerCase())
        .execute(),
    ).toHaveLength(1);
  });

  it("has expired after 7 days; a resend gives a new link and another 7 days, and the old link is dead", async () => {
    const email = uniqueEmail("late");
    const { invitation, token } = await invite("Late Client", email);
    await server.db
      .updateTable("invitations")
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where("id", "=", invitation.id)
      .execute();

    const peek = await visitor().post("/api/auth/invitations/check", { token });
    expect(peek.status).toBe(404);
    expect(peek.body.detail).toBe("This invitation has expired. Ask the firm to send you a new one.");
    expect((await accept(token)).res.body.detail).toBe("This invitation has expired. Ask the firm to send you a new one.");
    const listed = await adminApi.get("/api/admin/invitations");
    expect(listed.body.find((i: { id: string }) => i.id === invitation.id)).toMatchObject({ status: "expired" });

    const resent = await adminApi.post(`/api/admin/invitations/${invitation.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ status: "pending", invited_by: admin.username });
    expect(new Date(resent.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    const fresh = await invitationToken(email, [token]);
    expect(fresh).not.toBe(token);
    const old = await visitor().post("/api/auth/invitations/check", { token });
    expect(old.status).toBe(404);
    expect(old.body.detail).toMatch(/not valid/);
    expect((await visitor().post("/api/auth/invitations/check", { token: fresh })).status).toBe(200);
    expect(await activityOf("invitation.resend", invitation.id)).toHaveLength(1);
  });

  it("a resend of a pending invitation kills the link it replaces", async () => {
    const email = uniqueEmail("resend");
    const { invitation, token } = await invite("Resend Client", email);
    expect((await adminApi.post(`/api/admin/invitations/${invitation.id}/resend`)).status).toBe(200);
    const fresh = await invitationToken(email, [token]);
    // A late retry of the first sending's mail (its SMTP try had failed, say) sends nothing and
    // leaves the resent link alone.
    expect(await invitationMail(server.deps, { invitationId: invitation.id, expiresAt: invitation.expires_at })).toBeNull();
    expect((await accept(token)).res.status).toBe(404);
    expect((await accept(fresh)).res.status).toBe(201);
  });

  it("an expired invitation gives way to a new one to the same address", async () => {
    const email = uniqueEmail("reinvite");
    const { invitation } = await invite("First", email);
    await server.db
      .updateTable("invitations")
      .set({ expires_at: sql<Date>`now() - interval '1 day'` })
      .where("id", "=", invitation.id)
      .execute();
    const { invitation: second } = await invite("Second", email);
    expect(second.id).not.toBe(invitation.id);
  });

  it("a revoked invitation's link says so; revoked ones leave the list", async () => {
    const email = uniqueEmail("revoked");
    const { invitation, token } = await invite("Revoked Client", email);
    const revoked = await adminApi.delete(`/api/admin/invitations/${invitation.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    const peek = await visitor().post("/api/auth/invitations/check", { token });
    expect(peek.status).toBe(404);
    expect(peek.body.detail).toBe("This invitation was withdrawn by the firm.");
    expect((await accept(token)).res.status).toBe(404);
    expect((await adminApi.get("/api/admin/invitations")).body.some((i: { id: string }) => i.id === invitation.id)).toBe(false);
    expect((await adminApi.post(`/api/admin/invitations/${invitation.id}/resend`)).body.detail).toBe("This invitation was revoked");
    expect(await activityOf("invitation.revoke", invitation.id)).toHaveLength(1);
    // The address may be invited again.
    await invite("Revoked Client", email);
    const missing = await adminApi.delete(`/api/admin/invitations/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect((await adminApi.delete(`/api/admin/invitations/not-a-uuid`)).status).toBe(422);
  });
});

describe("registration by invitation only", () => {
  it("refuses registration with 403, still accepts invitations, and is open again when the firm says so", async () => {
    expect((await visitor().get("/api/auth/registration")).body).toEqual({ registration: "open" });
    await setRegistration("invite_only");
    try {
      expect((await visitor().get("/api/auth/registration")).body).toEqual({ registration: "invite_only" });
      expect((await adminApi.get("/api/admin/registration")).body).toEqual({ registration: "invite_only" });
      const refused = await visitor().post("/api/auth/register", {
        username: uniqueName("walkin"),
        email: uniqueEmail("walkin"),
        name: "Walk In",
        password: NEW_PASSWORD,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe(INVITE_ONLY);

      const { token } = await invite("Invited Anyway", uniqueEmail("anyway"));
      expect((await accept(token)).res.status).toBe(201);
    } finally {
      await setRegistration("open");
    }
    const open = await visitor().post("/api/auth/register", {
      username: uniqueName("walkin"),
      email: uniqueEmail("walkin"),
      name: "Walk In",
      password: DEFAULT_PASSWORD,
    });
    expect(open.status).toBe(200);
    expect((await adminApi.put("/api/admin/registration", { registration: "closed" })).status).toBe(422);
  });
});

/**
 * A browser's part of the Google round trip over plain HTTP (as in google-sign-in.test.ts): one
 * cookie jar with path-scoped cookies, redirects followed by hand until the app's own pages.
 */
class BrowserAgent {
  readonly cookies = new Map<string, { value: string; path: string }>();

  async fetch(url: string, form?: Record<string, string>) {
    const target = new URL(url);
    const cookie = [...this.cookies]
      .filter(([, c]) => target.pathname === c.path || target.pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
    const res = await fetch(target, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        ...(cookie ? { Cookie: cookie } : {}),
        ...(form ? { "Content-Type": "application/x-www-form-urlencoded", Origin: target.origin } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";").map((s) => s.trim());
      const eq = pair!.indexOf("=");
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
      if (/max-age=0/i.test(header) || pair!.slice(eq + 1) === "") this.cookies.delete(pair!.slice(0, eq));
      else this.cookies.set(pair!.slice(0, eq), { value: pair!.slice(eq + 1), path });
    }
    await res.text();
    return res;
  }

  /** "Continue with Google" from `start`, signing in at the provider as `email`; where the app sends the browser in the end. */
  async signIn(start: string, email: string): Promise<URL> {
    let current = start;
    let res = await this.fetch(current);
    for (let hops = 0; hops < 20; hops++) {
      if (res.status === 200 && new URL(current).origin === provider.issuer) {
        current = `${current}/login`;
        res = await this.fetch(current, { email });
        continue;
      }
      expect(res.status, current).toBeGreaterThanOrEqual(300);
      const next = new URL(res.headers.get("location")!, current);
      if (next.origin === server.url && !next.pathname.startsWith("/api/")) return next;
      current = next.href;
      res = await this.fetch(current);
    }
    throw new Error("the sign-in never came back to the app");
  }
}

describe("Google sign-in and invitations", () => {
  const account = (what: string): TestAccount => {
    const email = uniqueEmail(what);
    const created = { sub: `sub-${randomBytes(6).toString("hex")}`, email, email_verified: true, name: `Google ${what}` };
    provider.accounts.set(email.toLowerCase(), created);
    return created;
  };
  const accountsWith = (email: string) =>
    server.db
      .selectFrom("users")
      .select(["id", "auth_provider"])
      .where(sql<string>`lower(email)`, "=", email.toLowerCase())
      .execute();

  it("under invite_only makes no new account without an invitation, but still signs existing accounts in", async () => {
    await setRegistration("invite_only");
    try {
      const stranger = account("stranger");
      const landed = await new BrowserAgent().signIn(`${server.url}/api/auth/google`, stranger.email);
      expect(landed.pathname).toBe("/");
      expect(landed.searchParams.get("auth_error")).toBe("invite_only");
      expect(await accountsWith(stranger.email)).toHaveLength(0);

      const known = account("known");
      await createUser(server.db, { email: known.email });
      const signedIn = await new BrowserAgent().signIn(`${server.url}/api/auth/google`, known.email);
      expect(signedIn.pathname).toBe("/profile");
    } finally {
      await setRegistration("open");
    }
  });

  it("under invite_only makes the account of an invited address, accepting its invitation", async () => {
    const invited = account("invited");
    const { invitation } = await invite("Google Invited", invited.email);
    await setRegistration("invite_only");
    try {
      const landed = await new BrowserAgent().signIn(`${server.url}/api/auth/google`, invited.email);
      expect(landed.pathname).toBe("/profile");
    } finally {
      await setRegistration("open");
    }
    const [user] = await accountsWith(invited.email);
    expect(user).toMatchObject({ auth_provider: "google" });
    const row = await server.db
      .selectFrom("invitations")
      .select(["accepted_at", "accepted_user_id"])
      .where("id", "=", invitation.id)
      .executeTakeFirstOrThrow();
    expect(row.accepted_user_id).toBe(user!.id);
    expect(await activityOf("invitation.accept", invitation.id)).toHaveLength(1);
  });

  it("started from an invitation, only accepts the invited address: another one goes back to the invitation's form", async () => {
    const invited = account("carried");
    const other = account("other");
    const { invitation, token } = await invite("Carried Invite", invited.email);
    const wrong = await new BrowserAgent().signIn(`${server.url}/api/auth/google?invite=${token}`, other.email);
    expect(wrong.pathname).toBe("/");
    expect(wrong.searchParams.get("auth_error")).toBe("invite_email");
    expect(wrong.searchParams.get("invite")).toBe(token);
    expect(await accountsWith(other.email)).toHaveLength(0);

    const right = await new BrowserAgent().signIn(`${server.url}/api/auth/google?invite=${token}`, invited.email);
    expect(right.pathname).toBe("/profile");
    const row = await server.db.selectFrom("invitations").select("accepted_at").where("id", "=", invitation.id).executeTakeFirstOrThrow();
    expect(row.accepted_at).not.toBeNull();
    expect((await visitor().post("/api/auth/invitations/check", { token })).status).toBe(409);
  });
});
