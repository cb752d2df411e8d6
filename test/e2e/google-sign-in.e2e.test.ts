/*
 * Google sign-in end to end in Chromium: our server (with a fresh build of the React app) and a
 * real OpenID provider on loopback standing in for Google.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, releaseBrowser, screenshotOnFailure, sharedBrowser, type TestPage } from "../helpers/browser.ts";
import { oidcEnv, startOidcProvider, type TestAccount, type TestOidcProvider } from "../helpers/oidc-provider.ts";
import { freePort, startTestServer, type TestServer } from "../helpers/server.ts";

const newcomer: TestAccount = { sub: "google-sub-e2e-new", email: "new.client@example.com", email_verified: true, name: "Nora Newclient" };

let server: TestServer;
let provider: TestOidcProvider;
let browser: Browser;

beforeAll(async () => {
  const providerPort = await freePort();
  server = await startTestServer({ env: oidcEnv(providerPort) });
  provider = await startOidcProvider({
    port: providerPort,
    redirectUri: `${server.url}/api/auth/google/callback`,
    accounts: [newcomer],
  });
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await provider?.close();
  await server?.close();
});

/** The landing page with the welcome video already seen, so its modal does not cover the page. */
async function openLanding(t: TestPage) {
  t.page.setDefaultTimeout(15_000);
  await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
  await t.page.goto("/");
}

/** Landing page -> Client Portal -> Continue with Google -> the provider's sign-in form. */
async function continueWithGoogle(t: TestPage) {
  await openLanding(t);
  await t.page.getByRole("button", { name: "Client Portal", exact: true }).click();
  await t.page.getByRole("dialog").getByRole("button", { name: "Continue with Google" }).click();
  await t.page.waitForURL((url) => url.origin === provider.issuer);
}

describe("Continue with Google", { timeout: 60_000 }, () => {
  it("signs a new user in at the provider and lands them on /dashboard, with the one-time id gone from the URL", async () => {
    const t = await newPage(browser, { baseURL: server.url });
    await screenshotOnFailure(t.page, "google-sign-in-new-user", async () => {
      // Where the address bar stands while /profile posts the one-time id: already without it.
      let urlWhileRedeeming: string | null = null;
      await t.page.route(/\/trpc\/[^?]*auth\.profile/, async (route) => {
        urlWhileRedeeming = t.page.url();
        await route.continue();
      });

      await continueWithGoogle(t);
      await t.page.getByLabel("Email").fill(newcomer.email);
      await t.page.getByRole("button", { name: "Sign in" }).click();

      await t.page.waitForURL((url) => url.pathname === "/dashboard");
      expect(urlWhileRedeeming).toBe(`${server.url}/profile`);
      await t.page.getByText(newcomer.name).first().waitFor();

      const me = await t.page.evaluate(async () => {
        const res = await fetch("/api/auth/me", { credentials: "include" });
        return { status: res.status, body: (await res.json()) as { email?: string; auth_provider?: string } };
      });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ email: newcomer.email, auth_provider: "google" });

      const cookies = await t.context.cookies(server.url);
      expect(cookies.find((c) => c.name === "session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
      expect(cookies.find((c) => c.name === "google_oidc")).toBeUndefined();

      // Someone already signed in who opens /profile goes straight to the dashboard.
      await t.page.goto("/profile");
      await t.page.waitForURL((url) => url.pathname === "/dashboard");
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("says Authentication failed on the landing page when the user declines at the provider", async () => {
    const t = await newPage(browser, { baseURL: server.url });
    await screenshotOnFailure(t.page, "google-sign-in-declined", async () => {
      await continueWithGoogle(t);
      await t.page.getByRole("button", { name: "Cancel" }).click();
      await t.page.getByText("Authentication failed. Please try again.").waitFor();
      expect(new URL(t.page.url()).pathname).toBe("/");
      const cookies = await t.context.cookies(server.url);
      expect(cookies.find((c) => c.name === "session")).toBeUndefined();
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("says Authentication failed and returns to / when the one-time id was already used", async () => {
    const t = await newPage(browser, { baseURL: server.url });
    await screenshotOnFailure(t.page, "google-sign-in-replayed", async () => {
      // The page spends the one-time id itself; note it on its way through the address bar.
      let sessionId: string | null = null;
      t.page.on("framenavigated", (frame) => {
        const url = new URL(frame.url());
        if (url.pathname === "/profile" && url.hash) sessionId ??= new URLSearchParams(url.hash.slice(1)).get("session_id");
      });
      await continueWithGoogle(t);
      await t.page.getByLabel("Email").fill(newcomer.email);
      await t.page.getByRole("button", { name: "Sign in" }).click();
      await t.page.waitForURL((url) => url.pathname === "/dashboard");
      expect(sessionId).toBeTruthy();

      const stranger = await newPage(browser, { baseURL: server.url });
      await stranger.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
      await stranger.page.goto(`/profile#session_id=${sessionId}`);
      await stranger.page.getByText("Authentication failed. Please try again.").waitFor();
      await stranger.page.waitForURL((url) => url.pathname === "/");
      expect(new URL(stranger.page.url()).hash).toBe("");
      // The refused exchange itself is a 401 in the console; nothing else may be.
      stranger.expectNoConsoleErrors({ allow: [/status of 401 .*\/trpc\/auth\.profile/] });
      await stranger.close();
    });
    await t.close();
  });

  it("returns to the page a link opened without a session, after signing in with Google (issue 48)", async () => {
    const t = await newPage(browser, { baseURL: server.url });
    await screenshotOnFailure(t.page, "google-sign-in-link", async () => {
      t.page.setDefaultTimeout(15_000);
      await t.page.goto("/dashboard?tab=appointments");
      const dialog = t.page.getByRole("dialog", { name: "Client Portal" });
      await dialog.getByText("Log in to see your appointments.", { exact: false }).waitFor();
      await dialog.getByRole("button", { name: "Continue with Google" }).click();
      await t.page.waitForURL((url) => url.origin === provider.issuer);
      await t.page.getByLabel("Email").fill(newcomer.email);
      await t.page.getByRole("button", { name: "Sign in" }).click();
      await t.page.waitForURL((url) => url.pathname === "/dashboard" && url.searchParams.get("tab") === "appointments");
      await t.page.getByRole("tab", { name: "Appointments", selected: true }).waitFor();
    });
    t.expectNoConsoleErrors();
    await t.close();
  });
});
