/*
 * Account security in Chromium against the real server (issue 20): a client turns on two-factor
 * sign-in in Settings (the key read off the page, the codes computed here), signs in with a code
 * and with a backup code, registers a passkey with Chromium's virtual authenticator (the DevTools
 * WebAuthn domain) and signs in with it, and signs another browser out from the sessions list; an
 * admin does the same at /admin. Served at http://localhost: browsers refuse an IP address as a
 * passkey's relying party.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { signInAsAdminThroughUi } from "../helpers/admin-sign-in.ts";
import { browserTest } from "../helpers/browser-test.ts";
import {
  checkA11y,
  expectAccessibleAtBothWidths,
  formatViolations,
  headingOrderSkips,
  horizontalOverflow,
  newPage,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { REQUIRE_CLIENT_TWO_FACTOR } from "../../server/domains/profile/queries.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let browser: Browser;
let baseURL: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ publicHost: "localhost", env: { SMTP_URL: smtp.url } });
  baseURL = `http://localhost:${server.port}`;
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await smtp?.stop();
});

const it = browserTest(() => ({ browser, baseUrl: baseURL }));

const step = () => Math.floor(server.clock.now().getTime() / 30_000);

async function expectAccessible(page: Page): Promise<void> {
  const violations = await checkA11y(page);
  expect(violations, formatViolations(violations)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
}

/** Chromium's virtual platform authenticator for this page: it holds passkeys and says yes to user verification. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function openClientPortal(page: Page): Promise<void> {
  await page.goto("/");
  await page.getByRole("button", { name: "Client Portal", exact: true }).click();
  await page.getByRole("dialog", { name: "Client Portal" }).waitFor();
}

async function passwordStep(page: Page, user: UserFixture): Promise<void> {
  await openClientPortal(page);
  await page.getByLabel("Username").fill(user.username!);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.getByLabel("Authentication code").waitFor();
}

async function logOut(page: Page): Promise<void> {
  await page.request.post("/api/auth/logout", { headers: { Origin: baseURL } });
  await page.goto("/");
}

// Many steps each, on a machine other test files share: more than the default 30 s.
describe("account security", { timeout: 120_000 }, () => {
  it("enrols TOTP in Settings, signs in with a code and a backup code, adds a passkey and signs in with it, signs another browser out", async ({
    login,
  }) => {
    const user = await createUser(server.db, { name: "Robin Ledger" });
    const t = await login(user, "client", { viewport: viewports.desktop, reducedMotion: "reduce" });
    const { page } = t;
    await addVirtualAuthenticator(page);

    await screenshotOnFailure(page, "account-security", async () => {
      // Settings, from the portal's account menu.
      await page.goto("/dashboard");
      await page.getByRole("button", { name: /Robin Ledger/ }).click();
      await page.getByRole("menuitem", { name: "Settings" }).click();
      await page.waitForURL(/\/settings$/);
      await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
      await page.getByRole("region", { name: "Where you are signed in" }).getByText("This browser").waitFor();
      await expectAccessible(page);
      await takeScreenshot(page, "settings");

      // Two-factor sign-in: the key from the page, a code computed from it.
      await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
      const secret = (await page.getByTestId("totp-secret").getAttribute("data-secret"))!;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect((await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "")).toBe(secret);
      await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
      await expectAccessible(page);
      await takeScreenshot(page, "settings-two-factor-setup");
      const key = decodeBase32IgnorePadding(secret);
      await page.getByLabel("Code from the app").fill(generateHOTP(key, BigInt(step()), 6));
      await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
      await page.getByRole("list", { name: "Backup codes" }).waitFor();
      const codes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allInnerTexts();
      expect(codes).toHaveLength(10);
      await page.getByRole("region", { name: "Two-factor sign-in" }).getByText("On", { exact: true }).waitFor();
      await expectAccessible(page);
      await takeScreenshot(page, "settings-backup-codes");

      // Sign out, and back in with a code from the app.
      await logOut(page);
      await passwordStep(page, user);
      await expectAccessible(page);
      await takeScreenshot(page, "sign-in-code");
      await page.getByLabel("Authentication code").fill(generateHOTP(key, BigInt(step() + 1), 6));
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page.waitForURL(/\/dashboard/);

      // And with a backup code, once.
      await logOut(page);
      await passwordStep(page, user);
      await page.getByLabel("Authentication code").fill(codes[0]!);
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page.waitForURL(/\/dashboard/);

      // A passkey, registered in Settings...
      await page.goto("/settings");
      await page.getByLabel("Passkey name").fill("Virtual laptop");
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await page.getByRole("list", { name: "Passkeys" }).getByText("Virtual laptop").waitFor();
      const stored = await server.db.selectFrom("passkeys").select(["name", "user_id"]).execute();
      expect(stored).toEqual([{ name: "Virtual laptop", user_id: user.id }]);

      // ...signs in alone: no password, no code.
      await logOut(page);
      await openClientPortal(page);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.waitForURL(/\/dashboard/);
      const used = await server.db.selectFrom("passkeys").select(["last_used_at", "counter"]).executeTakeFirstOrThrow();
      expect(used.last_used_at).not.toBeNull();

      // Another browser signed in as the same user, signed out from here.
      // This 30 seconds' codes may all be spent: a backup code.
      const other = await login({ ...user, secondFactor: { key, lastStep: step() + 1, backupCodes: [codes[1]!] } }, "client", {
        viewport: viewports.desktop,
      });
      expect((await other.page.request.get("/api/auth/me")).status()).toBe(200);
      await page.goto("/settings");
      const sessions = page.getByRole("list", { name: "Sessions" });
      await expect.poll(() => sessions.getByRole("listitem").count(), { timeout: 10_000 }).toBe(2);
      await sessions.getByRole("button", { name: /^Sign out / }).click();
      await expect.poll(() => sessions.getByRole("listitem").count(), { timeout: 10_000 }).toBe(1);
      expect((await other.page.request.get("/api/auth/me")).status()).toBe(401);
      await other.close();
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("fits a 390 px screen, and signs out every other session", async ({ login }) => {
    const user = await createUser(server.db, { two_factor: true });
    const t = await login(user, "client", { viewport: viewports.mobile, reducedMotion: "reduce" });
    const elsewhere = await login(user, "client", { viewport: viewports.desktop });
    await screenshotOnFailure(t.page, "settings-mobile", async () => {
      await t.page.goto("/settings");
      await t.page.getByRole("region", { name: "Two-factor sign-in" }).getByText("On", { exact: true }).waitFor();
      await t.page.getByRole("list", { name: "Sessions" }).getByText("This browser").waitFor();
      await expectAccessible(t.page);
      await takeScreenshot(t.page, "settings");
      await t.page.getByRole("button", { name: "Sign out everywhere else" }).click();
      await t.page.getByRole("alertdialog").getByRole("button", { name: "Sign out" }).click();
      await expect.poll(() => t.page.getByRole("list", { name: "Sessions" }).getByRole("listitem").count()).toBe(1);
      expect((await elsewhere.page.request.get("/api/auth/me")).status()).toBe(401);
      expect((await t.page.request.get("/api/auth/me")).status()).toBe(200);
    });
    t.expectNoConsoleErrors();
    await t.close();
    await elsewhere.close();
  });

  it("sets up two-factor on a phone: Add to authenticator app, Copy key, the key broken only between groups, number pads (390 and 1280 px)", async ({
    login,
  }) => {
    const user = await createUser(server.db, { name: "Pia Phone" });
    const t = await login(user, "client", { viewport: viewports.mobile, reducedMotion: "reduce" });
    const { page } = t;
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await screenshotOnFailure(page, "two-factor-phone", async () => {
      await page.goto("/settings");
      await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
      const form = page.getByRole("form", { name: "Set up two-factor sign-in" });
      const key = form.getByTestId("totp-secret");
      await key.waitFor();
      const secret = (await key.getAttribute("data-secret"))!;
      const link = form.getByRole("link", { name: "Add to authenticator app" });
      expect(await link.getAttribute("href")).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
      expect(new URL((await link.getAttribute("href"))!).searchParams.get("secret")).toBe(secret);
      // No group of four is split over two lines on a 390 px screen.
      const linesPerGroup = await key.locator("span").evaluateAll((groups) => groups.map((group) => group.getClientRects().length));
      expect(linesPerGroup.length).toBe(Math.ceil(secret.length / 4));
      expect(linesPerGroup.every((lines) => lines === 1)).toBe(true);
      await form.getByRole("button", { name: "Copy key" }).click();
      await form.getByRole("status").getByText("The setup key is copied. Paste it into your authenticator app.").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      const code = form.getByLabel("Code from the app");
      expect([await code.getAttribute("inputmode"), await code.getAttribute("autocomplete")]).toEqual(["numeric", "one-time-code"]);
      expect(await headingOrderSkips(page)).toEqual([]);
      await expectAccessibleAtBothWidths(page, "two-factor-setup-phone");
      // Turned on with a code, the code field of turning it off brings up the number pad too.
      await code.fill(generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step()), 6));
      await form.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
      await page.getByRole("region", { name: "Two-factor sign-in" }).getByText("On", { exact: true }).waitFor();
      expect(await page.getByLabel("Code from your authenticator app").first().getAttribute("inputmode")).toBe("numeric");
    });
    t.expectNoConsoleErrors();
  });

  for (const [size, viewport] of Object.entries(viewports)) {
    it(`asks for the password before adding a passkey when the last proof is over 10 minutes old (${viewport.width} px)`, async ({ login }) => {
      const user = await createUser(server.db, { name: "Robin Ledger" });
      const t = await login(user, "client", { viewport, reducedMotion: "reduce" });
      const { page } = t;
      await addVirtualAuthenticator(page);
      // The sign-in was 11 minutes ago as far as the fresh-proof rule is concerned (docs/security.md, Round 3).
      await server.db
        .updateTable("sessions")
        .set({ proven_at: new Date(server.clock.now().getTime() - 11 * 60 * 1000) })
        .where("user_id", "=", user.id)
        .execute();
      await screenshotOnFailure(page, `settings-confirm-identity-${size}`, async () => {
        await page.goto("/settings");
        await page.getByLabel("Passkey name").fill("Virtual laptop");
        await page.getByRole("button", { name: "Add a passkey" }).click();
        const dialog = page.getByRole("alertdialog", { name: "Confirm it is you" });
        await dialog.waitFor();
        await dialog.getByLabel("Current password").fill("Not-My-Password-1");
        await dialog.getByRole("button", { name: "Continue" }).click();
        await dialog.getByText("Current password is incorrect").waitFor();
        await expectAccessible(page);
        await takeScreenshot(page, "settings-confirm-identity");
        await dialog.getByLabel("Current password").fill(user.password);
        await dialog.getByRole("button", { name: "Continue" }).click();
        await page.getByRole("list", { name: "Passkeys" }).getByText("Virtual laptop").waitFor();
        expect(await server.db.selectFrom("passkeys").select(["name", "proven"]).where("user_id", "=", user.id).execute()).toEqual([
          { name: "Virtual laptop", proven: true },
        ]);
      });
      t.expectNoConsoleErrors({ allow: [/status of 400/] });
      await t.close();
    });
  }

  it("changes the email address once the link sent to the new one is opened", async ({ login }) => {
    const user = await createUser(server.db);
    const t = await login(user, "client", { viewport: viewports.mobile, reducedMotion: "reduce" });
    await screenshotOnFailure(t.page, "settings-email-change", async () => {
      await t.page.goto("/settings");
      await t.page.getByLabel("New email address").fill("robin.new@example.com");
      await t.page.getByRole("form", { name: "Email address" }).getByLabel("Current password").fill(user.password);
      await t.page.getByRole("button", { name: "Change email" }).click();
      await t.page.getByText("Waiting for confirmation").waitFor();
      await expectAccessible(t.page);
      const mail = await smtp.waitForMail("robin.new@example.com", /Confirm your new email/);
      const link = /http:\/\/\S+\/\?email_change_token=[a-z2-7]+/.exec(mail.text)![0];
      expect(new URL(link).origin).toBe(baseURL);
      await t.page.goto(link);
      await t.page.locator("[data-sonner-toast]", { hasText: "Your new email address is confirmed." }).waitFor();
      await t.page.goto("/settings");
      await t.page.getByText("robin.new@example.com").first().waitFor();
      expect(await t.page.getByText("Waiting for confirmation").count()).toBe(0);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("an admin signs in at /admin with a code, then with a passkey", async () => {
    const admin = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    const t: TestPage = await newPage(browser, { baseURL, viewport: viewports.desktop, reducedMotion: "reduce" });
    const { page } = t;
    await addVirtualAuthenticator(page);
    await screenshotOnFailure(page, "admin-account-security", async () => {
      await page.goto("/admin");
      await page.getByLabel("Username").fill(admin.username!);
      await page.getByLabel("Password", { exact: true }).fill(admin.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByLabel("Authentication code").waitFor();
      await expectAccessible(page);
      await takeScreenshot(page, "admin-login-code");
      await page.goto("/admin");
      await signInAsAdminThroughUi(page, admin, baseURL);

      await page.goto("/admin/dashboard?tab=account");
      await page.getByRole("region", { name: "Two-factor sign-in" }).getByText("Admin accounts must keep two-factor sign-in.").waitFor();
      await expectAccessible(page);
      await takeScreenshot(page, "admin-account");
      await page.getByLabel("Passkey name").fill("Office key");
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await page.getByRole("list", { name: "Passkeys" }).getByText("Office key").waitFor();

      await page.getByRole("button", { name: "Logout" }).click();
      await page.getByRole("heading", { name: "Admin login" }).waitFor();
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.waitForURL(/\/admin\/dashboard/);
      await page.getByRole("heading", { name: "Recent users" }).waitFor();

      await page.goto("/admin/dashboard?tab=site&area=settings");
      const requireForClients = page.getByLabel("Require two-factor sign-in for all clients");
      await requireForClients.check();
      await page.locator("[data-sonner-toast]", { hasText: "Every client now needs two-factor sign-in." }).waitFor();
      await expect
        .poll(
          async () =>
            (await server.db.selectFrom("firm_settings").select("value").where("key", "=", REQUIRE_CLIENT_TWO_FACTOR).executeTakeFirst())?.value,
        )
        .toBe("true");
      await requireForClients.uncheck();
      await expect
        .poll(
          async () =>
            (await server.db.selectFrom("firm_settings").select("value").where("key", "=", REQUIRE_CLIENT_TWO_FACTOR).executeTakeFirst())?.value,
        )
        .toBe("false");
    });
    // Logout leaves the dashboard's statistics to be asked for once more without a session, as in admin.e2e.
    t.expectNoConsoleErrors({ allow: [/status of 401 .*\/trpc\/admin\.stats/] });
    await t.close();
  });
});
