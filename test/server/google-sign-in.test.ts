import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidateUserSessions } from "../../server/auth/session.ts";
import { createUser, DEFAULT_PASSWORD, nextSecondFactorCode } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { oidcEnv, startOidcProvider, type TestAccount, type TestOidcProvider } from "../helpers/oidc-provider.ts";
import { freePort, startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const AUTH_FAILED = "Authentication failed. Please try again.";

const alice: TestAccount = { sub: "google-sub-alice", email: "alice.new@example.com", email_verified: true, name: "Alice Newcomer" };
const casey: TestAccount = { sub: "google-sub-casey", email: "casey.local@example.com", email_verified: true, name: "Casey Google" };
const unverified: TestAccount = { sub: "google-sub-uma", email: "uma.unverified@example.com", email_verified: false, name: "Uma" };
const returning: TestAccount = { sub: "google-sub-rita", email: "rita@example.com", email_verified: true, name: "Rita Return" };
const twoFactor: TestAccount = { sub: "google-sub-tess", email: "tess.two@example.com", email_verified: true, name: "Tess Two" };

let server: TestServer;
let provider: TestOidcProvider;
let smtp: TestSmtpServer;

beforeAll(async () => {
  const providerPort = await freePort();
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { ...oidcEnv(providerPort), SMTP_URL: smtp.url } });
  provider = await startOidcProvider({
    port: providerPort,
    redirectUri: `${server.url}/api/auth/google/callback`,
    accounts: [alice, casey, unverified, returning, twoFactor],
  });
});
afterAll(async () => {
  await provider?.close();
  await server?.close();
  await smtp?.stop();
});

/**
 * What a browser does in this flow, over plain HTTP: one cookie jar for the loopback host (cookies
 * ignore ports), path-scoped cookies, redirects followed by hand. It stops where the browser would
 * hand over to our React app (/profile or /) or at the provider's login form.
 */
class BrowserAgent {
  readonly cookies = new Map<string, { value: string; path: string }>();

  async fetch(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const target = new URL(url);
    const cookie = [...this.cookies]
      .filter(([, c]) => target.pathname === c.path || target.pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
    const res = await fetch(target, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: {
        ...(cookie ? { Cookie: cookie } : {}),
        ...(init.form ? { "Content-Type": "application/x-www-form-urlencoded", Origin: target.origin } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";").map((s) => s.trim());
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
    return { res, text: await res.text() };
  }

  /** Follows redirects from `url`; returns the last response and the URL it came from, or the app page it ends on. */
  async follow(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    let current = url;
    let step = await this.fetch(current, init);
    for (let hops = 0; step.res.status >= 300 && step.res.status < 400; hops++) {
      if (hops > 10) throw new Error("too many redirects");
      const next = new URL(step.res.headers.get("location")!, current);
      if (next.origin === server.url && ["/profile", "/", "/two-factor"].includes(next.pathname)) {
        return { landedOn: next, lastUrl: current, ...step };
      }
      current = next.href;
      step = await this.fetch(current);
    }
    return { landedOn: null, lastUrl: current, ...step };
  }
}

/** Starts "Continue with Google" and follows it to the provider's login form. */
async function openProviderLogin(agent: BrowserAgent) {
  const atProvider = await agent.follow(`${server.url}/api/auth/google`);
  expect(atProvider.res.status).toBe(200);
  expect(atProvider.text).toContain("Sign in to the test provider");
  expect(new URL(atProvider.lastUrl).origin).toBe(provider.issuer);
  return atProvider.lastUrl;
}

/** Submits the provider's form and follows the redirects until they would reach the app's callback. */
async function callbackUrlFromProvider(agent: BrowserAgent, loginUrl: string, choice: { email: string } | "cancel") {
  const action = choice === "cancel" ? "abort" : "login";
  let step = await agent.fetch(`${loginUrl}/${action}`, { method: "POST", form: choice === "cancel" ? {} : choice });
  let current = `${loginUrl}/${action}`;
  for (let hops = 0; hops < 10; hops++) {
    expect(step.res.status, step.text).toBeGreaterThanOrEqual(300);
    const next = new URL(step.res.headers.get("location")!, current);
    if (next.origin === server.url) return next;
    current = next.href;
    step = await agent.fetch(current);
  }
  throw new Error("the provider never redirected back");
}

/** The whole browser round trip; returns where it ended in the app (`/profile#session_id=...` or `/?auth_error=1`). */
async function signInWithGoogle(choice: { email: string } | "cancel", agent = new BrowserAgent()) {
  const loginUrl = await openProviderLogin(agent);
  const callback = await callbackUrlFromProvider(agent, loginUrl, choice);
  expect(callback.pathname).toBe("/api/auth/google/callback");
  const end = await agent.follow(callback.href);
  if (!end.landedOn) throw new Error(`the callback ended on ${end.lastUrl} with ${end.res.status}: ${end.text}`);
  return { landedOn: end.landedOn, agent };
}

/** The one-time id /profile received, and the cookie of the browser it was issued to. */
type LoginCode = { sessionId: string; browserSecret?: string };

function codeOf({ landedOn, agent }: { landedOn: URL; agent: BrowserAgent }): LoginCode {
  expect(landedOn.pathname).toBe("/profile");
  const sessionId = new URLSearchParams(landedOn.hash.slice(1)).get("session_id");
  expect(sessionId).toMatch(/^[a-z2-7]{32}$/);
  const browserSecret = agent.cookies.get("google_signin")?.value;
  expect(browserSecret).toMatch(/^[a-z2-7]{32}$/);
  return { sessionId: sessionId!, browserSecret };
}

function expectAuthError(landedOn: URL) {
  expect(landedOn.pathname).toBe("/");
  expect(landedOn.searchParams.get("auth_error")).toBe("1");
}

async function usersWithEmail(email: string) {
  return server.db
    .selectFrom("users")
    .select(["id", "email", "name", "username", "auth_provider", "google_subject", "password_hash"])
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .execute();
}

/** What /profile does: posts the one-time id as a form field, which sets the session cookie. */
async function redeem({ sessionId, browserSecret }: LoginCode, client = new ApiClient(server.url)) {
  if (browserSecret) client.cookies.set("google_signin", browserSecret);
  const res = await client.request("POST", "/api/auth/profile", {
    body: new URLSearchParams({ session_id: sessionId }),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  return { res, client };
}

describe("Google sign-in, start", () => {
  it("sends the browser to the provider with code flow, PKCE S256, state and nonce, keeping them in a callback-scoped cookie", async () => {
    const res = await fetch(`${server.url}/api/auth/google`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get("response_type")).toBe("code");
    expect(location.searchParams.get("client_id")).toBe(provider.clientId);
    expect(location.searchParams.get("redirect_uri")).toBe(`${server.url}/api/auth/google/callback`);
    expect(location.searchParams.get("scope")).toBe("openid email profile");
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get("state")).toBeTruthy();
    expect(location.searchParams.get("nonce")).toBeTruthy();

    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^google_oidc=/);
    expect(cookie).toMatch(/; Max-Age=600/);
    expect(cookie).toMatch(/; Path=\/api\/auth\/google\/callback/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  // These start a server of their own; an embedded database takes a while to create on a busy machine.
  it("answers 404 with a detail when Google sign-in is not configured", { timeout: 120_000 }, async () => {
    const bare = await startTestServer();
    try {
      const client = new ApiClient(bare.url);
      const res = await client.get("/api/auth/google");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: "Google sign-in is not configured" });
      const callback = await client.get("/api/auth/google/callback?code=x&state=y");
      expect(callback.status).toBe(302);
      expect(callback.headers.get("location")).toBe("/?auth_error=1");
    } finally {
      await bare.close();
    }
  });

  it("ends on the landing page with the error flag when the provider cannot be reached", { timeout: 120_000 }, async () => {
    const closedPort = await freePort();
    const offline = await startTestServer({ env: oidcEnv(closedPort) });
    try {
      const res = await new ApiClient(offline.url).get("/api/auth/google");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/?auth_error=1");
      expect(res.headers.getSetCookie().some((c) => c.startsWith("google_oidc="))).toBe(false);
    } finally {
      await offline.close();
    }
  });
});

describe("Google sign-in, accounts", () => {
  it("creates a new user (auth_provider google, no password) and signs them in through /profile", async () => {
    const sessionId = codeOf(await signInWithGoogle({ email: alice.email }));

    const rows = await usersWithEmail(alice.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: alice.email,
      name: alice.name,
      username: null,
      auth_provider: "google",
      google_subject: alice.sub,
      password_hash: null,
    });

    const { res, client } = await redeem(sessionId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const sessionCookie = res.headers.getSetCookie().find((c) => c.startsWith("session="));
    expect(sessionCookie).toMatch(/; Max-Age=604800/);
    expect(sessionCookie).toMatch(/; HttpOnly/);

    const me = await client.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: rows[0]!.id, email: alice.email, name: alice.name, auth_provider: "google", is_admin: false });
  });

  it("gives a returning user the same account", async () => {
    const first = codeOf(await signInWithGoogle({ email: returning.email }));
    const firstUser = await redeem(first);
    const second = codeOf(await signInWithGoogle({ email: returning.email }));
    const secondUser = await redeem(second);

    const [me1, me2] = await Promise.all([firstUser.client.get("/api/auth/me"), secondUser.client.get("/api/auth/me")]);
    expect(me1.body.id).toBeTruthy();
    expect(me2.body.id).toBe(me1.body.id);
    expect(await usersWithEmail(returning.email)).toHaveLength(1);
  });

  it("links an existing local account with the same verified email (any case) instead of duplicating it", async () => {
    const local = await createUser(server.db, { username: "casey_local", email: "Casey.Local@Example.com", name: "Casey Local" });
    // Registration never proved the email: whoever set this password may not own the address.
    const earlier = await new ApiClient(server.url).post("/api/auth/login", { username: "casey_local", password: DEFAULT_PASSWORD });
    expect(earlier.status).toBe(200);
    const earlierSession = new ApiClient(server.url);
    earlierSession.bearer = earlier.body.session_token as string;
    expect((await earlierSession.get("/api/auth/me")).status).toBe(200);

    const sessionId = codeOf(await signInWithGoogle({ email: casey.email }));
    const { client } = await redeem(sessionId);
    const me = await client.get("/api/auth/me");
    // Nobody proved the registrant owned the address, so nor the name the firm's mail would greet
    // the owner with: it becomes the one Google knows.
    expect(me.body).toMatchObject({ id: local.id, username: "casey_local", name: casey.name, auth_provider: "local", email_verified: true });

    const rows = await usersWithEmail(casey.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.google_subject).toBe(casey.sub);

    // The verified owner of the email takes the account over: the earlier password and every
    // earlier session end (a password can be set again by email reset).
    expect(rows[0]!.password_hash).toBeNull();
    const login = await new ApiClient(server.url).post("/api/auth/login", { username: "casey_local", password: DEFAULT_PASSWORD });
    expect(login.status).toBe(401);
    expect((await earlierSession.get("/api/auth/me")).status).toBe(401);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    // The next Google sign-in finds the account by its subject.
    const again = await redeem(codeOf(await signInWithGoogle({ email: casey.email })));
    expect((await again.client.get("/api/auth/me")).body.id).toBe(local.id);
  });

  it("keeps the name of an account whose address was verified before Google linked it", async () => {
    const vera: TestAccount = { sub: "google-sub-vera", email: "vera@example.com", email_verified: true, name: "Vera Google" };
    provider.accounts.set(vera.email, vera);
    const local = await createUser(server.db, { username: "vera_local", email: vera.email, name: "Vera Verified" });
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", local.id).execute();
    const { client } = await redeem(codeOf(await signInWithGoogle({ email: vera.email })));
    expect((await client.get("/api/auth/me")).body).toMatchObject({ id: local.id, name: "Vera Verified" });
  });

  it("lets a user created by Google set a password with the forgot-password flow, keeping Google sign-in", async () => {
    const gina: TestAccount = { sub: "google-sub-gina", email: "gina@example.com", email_verified: true, name: "Gina Google" };
    provider.accounts.set(gina.email, gina);
    const { client } = await redeem(codeOf(await signInWithGoogle({ email: gina.email })));
    const userId = (await client.get("/api/auth/me")).body.id as string;

    const before = smtp.messages.length;
    expect((await new ApiClient(server.url).post("/api/auth/forgot-password", { email: gina.email })).status).toBe(200);
    const [mail] = (await smtp.waitForMessages(before + 1)).slice(before);
    expect(mail!.to).toEqual([gina.email]);
    const token = /reset_token=([a-z2-7]+)/.exec(mail!.text)?.[1];
    expect(token).toBeTruthy();
    const reset = await new ApiClient(server.url).post("/api/auth/reset-password", { token, new_password: "Copper-Lantern-Meadow-9" });
    expect(reset.status).toBe(200);

    const [row] = await usersWithEmail(gina.email);
    expect(row!.id).toBe(userId);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    // Google users have no username: the new password signs in with the email.
    const byEmail = await new ApiClient(server.url).post("/api/auth/login", {
      username: gina.email.toUpperCase(),
      password: "Copper-Lantern-Meadow-9",
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user.id).toBe(userId);
    const again = await redeem(codeOf(await signInWithGoogle({ email: gina.email })));
    expect((await again.client.get("/api/auth/me")).body.id).toBe(userId);
  });

  it("refuses an account whose email the provider has not verified, and does not link it to a local account", async () => {
    const local = await createUser(server.db, { username: "uma_local", email: unverified.email });
    const { landedOn } = await signInWithGoogle({ email: unverified.email });
    expectAuthError(landedOn);
    const rows = await usersWithEmail(unverified.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: local.id, google_subject: null, auth_provider: "local" });
  });

  it("refuses a second Google identity for an email already linked to another one", async () => {
    const impostor: TestAccount = { sub: "google-sub-other", email: "linked.twice@example.com", email_verified: true, name: "Other" };
    const original: TestAccount = { ...impostor, sub: "google-sub-original", email: "LINKED.TWICE@example.com" };
    provider.accounts.set(original.email.toLowerCase(), original);
    codeOf(await signInWithGoogle({ email: original.email }));

    provider.accounts.set(impostor.email.toLowerCase(), impostor);
    expectAuthError((await signInWithGoogle({ email: impostor.email })).landedOn);
    const rows = await usersWithEmail(impostor.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.google_subject).toBe("google-sub-original");
  });
});

describe("Google sign-in, second factor", () => {
  it("asks an account with two-factor sign-in for its code on /two-factor, only in the browser that finished the sign-in", async () => {
    const user = await createUser(server.db, { email: twoFactor.email, two_factor: true });
    // A verified address: on an unverified one Google's proof voids the second factor (account-takeover.test.ts).
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
    const { landedOn, agent } = await signInWithGoogle({ email: twoFactor.email });
    expect(landedOn.pathname).toBe("/two-factor");
    const params = new URLSearchParams(landedOn.hash.slice(1));
    expect(params.get("step")).toBe("verify");
    const challenge = params.get("challenge")!;
    expect(challenge).toMatch(/^[a-z2-7]{32}$/);
    // No session yet: only the code makes one.
    expect([...agent.cookies.keys()]).not.toContain("session");
    expect(await server.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toEqual([]);

    const code = nextSecondFactorCode(user, server.clock.now());
    const elsewhere = await new ApiClient(server.url).post("/api/auth/login/2fa", { challenge, code });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toEqual({ detail: "This sign-in has expired. Please sign in again." });

    const sameBrowser = new ApiClient(server.url);
    sameBrowser.cookies.set("google_signin", agent.cookies.get("google_signin")!.value);
    const done = await sameBrowser.post("/api/auth/login/2fa", { challenge, code });
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ id: user.id, auth_provider: "local" });
    expect((await sameBrowser.get("/api/auth/me")).body.email).toBe(twoFactor.email);
  });
});

describe("Google sign-in, refusals", () => {
  it("ends on the landing page with the error flag when the user declines at the provider", async () => {
    const before = await server.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    const { landedOn } = await signInWithGoogle("cancel");
    expectAuthError(landedOn);
    const after = await server.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("refuses a callback whose state was tampered with", async () => {
    const agent = new BrowserAgent();
    const callback = await callbackUrlFromProvider(agent, await openProviderLogin(agent), { email: alice.email });
    callback.searchParams.set("state", "forged-state");
    const end = await agent.follow(callback.href);
    expectAuthError(end.landedOn!);
  });

  it("refuses a callback from an earlier attempt once a newer one started (the state no longer matches)", async () => {
    const agent = new BrowserAgent();
    const staleCallback = await callbackUrlFromProvider(agent, await openProviderLogin(agent), { email: alice.email });
    await agent.fetch(`${server.url}/api/auth/google`);
    const end = await agent.follow(staleCallback.href);
    expectAuthError(end.landedOn!);
  });

  it("refuses a callback in a browser that never started the sign-in (no state cookie), and spends the cookie after one use", async () => {
    const agent = new BrowserAgent();
    const callback = await callbackUrlFromProvider(agent, await openProviderLogin(agent), { email: alice.email });
    expectAuthError((await new BrowserAgent().follow(callback.href)).landedOn!);

    const first = await agent.follow(callback.href);
    expect(first.landedOn!.pathname).toBe("/profile");
    expect([...agent.cookies.keys()]).not.toContain("google_oidc");
    expectAuthError((await agent.follow(callback.href)).landedOn!);
  });

  it("refuses a session_id carried to another browser: an attacker's own sign-in cannot be planted in a victim's", async () => {
    // The attacker signs in with their own Google account and stops at the redirect to /profile.
    const attacker = codeOf(await signInWithGoogle({ email: alice.email }));
    // The victim's browser opens the link: it has no cookie from that callback.
    const victim = new ApiClient(server.url);
    const planted = await redeem({ sessionId: attacker.sessionId }, victim);
    expect(planted.res.status).toBe(401);
    expect(planted.res.body).toEqual({ detail: AUTH_FAILED });
    expect((await victim.get("/api/auth/me")).status).toBe(401);
    // Nor with a cookie of the victim's own earlier sign-in.
    const victimsOwn = codeOf(await signInWithGoogle({ email: returning.email }));
    const withOtherCookie = await redeem({ sessionId: attacker.sessionId, browserSecret: victimsOwn.browserSecret });
    expect(withOtherCookie.res.status).toBe(401);
    // A refused attempt spends the code: the attacker cannot retry it in the victim's name later.
    expect((await redeem(attacker)).res.status).toBe(401);
  });

  it("sets the browser's cookie for the code in the callback answer: HttpOnly, SameSite=Lax, path /, 60 seconds", async () => {
    const agent = new BrowserAgent();
    const callback = await callbackUrlFromProvider(agent, await openProviderLogin(agent), { email: alice.email });
    const { res } = await agent.fetch(callback.href);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("google_signin="));
    expect(cookie).toMatch(/^google_signin=[a-z2-7]{32}; Max-Age=60; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it("voids a one-time id when the account's password is reset before it is redeemed", async () => {
    const code = codeOf(await signInWithGoogle({ email: returning.email }));
    const [row] = await usersWithEmail(returning.email);
    await server.db.transaction().execute((trx) => invalidateUserSessions(trx, row!.id));
    const late = await redeem(code);
    expect(late.res.status).toBe(401);
    expect(late.res.body).toEqual({ detail: AUTH_FAILED });
  });

  it("refuses a replayed session_id", async () => {
    const sessionId = codeOf(await signInWithGoogle({ email: alice.email }));
    expect((await redeem(sessionId)).res.status).toBe(200);
    const replay = await redeem(sessionId);
    expect(replay.res.status).toBe(401);
    expect(replay.res.body).toEqual({ detail: AUTH_FAILED });
    expect(replay.res.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
  });

  it("lets exactly one of many parallel redemptions of a session_id win", async () => {
    const sessionId = codeOf(await signInWithGoogle({ email: alice.email }));
    const results = await Promise.all(Array.from({ length: 20 }, () => redeem(sessionId)));
    expect(results.map((r) => r.res.status).sort()).toEqual([200, ...Array<number>(19).fill(401)]);
  });

  it("refuses a session_id older than 60 seconds", async () => {
    const sessionId = codeOf(await signInWithGoogle({ email: alice.email }));
    server.clock.advance(61_000);
    try {
      const late = await redeem(sessionId);
      expect(late.res.status).toBe(401);
      expect(late.res.body).toEqual({ detail: AUTH_FAILED });
    } finally {
      server.clock.advance(-61_000);
    }
  });

  it("refuses an unknown, empty or missing session_id with the spec's message", async () => {
    expect((await redeem({ sessionId: "a".repeat(32) })).res.body).toEqual({ detail: AUTH_FAILED });
    const empty = await redeem({ sessionId: "" });
    expect(empty.res.status).toBe(422);
    expect(empty.res.body).toEqual({ detail: AUTH_FAILED });
    const missing = await new ApiClient(server.url).post("/api/auth/profile", {});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ detail: AUTH_FAILED });
  });

  it("never writes the one-time id or the provider's code to the log", async () => {
    const agent = new BrowserAgent();
    const callback = await callbackUrlFromProvider(agent, await openProviderLogin(agent), { email: alice.email });
    const end = await agent.follow(callback.href);
    const sessionId = codeOf({ landedOn: end.landedOn!, agent });
    await redeem(sessionId);
    const logs = server.logs.join("\n");
    expect(logs).not.toContain(sessionId.sessionId);
    expect(logs).not.toContain(sessionId.browserSecret);
    expect(logs).not.toContain(callback.searchParams.get("code")!);
  });
});
