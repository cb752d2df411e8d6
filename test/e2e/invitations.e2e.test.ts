/*
 * Invitations in Chromium against the real server, database and a test SMTP server: the admin
 * invites a client from the Users tab, the link in the real email opens "Accept your invitation",
 * the client chooses a username and password and lands on the dashboard; a used link says so; and
 * with registration by invitation only (set on the Site tab) the Register tab says that instead
 * of its form. Screenshots at 390 and 1280 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import {
  checkA11y,
  formatViolations,
  horizontalOverflow,
  newPage,
  releaseBrowser,
  screenshotDir,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let browser: Browser;
let admin: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  admin = await createUser(server.db, { is_admin: true });
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await smtp?.stop();
});

const PASSWORD = "Amber-Quay-Ledger-57";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first();

async function invitationLink(email: string): Promise<string> {
  const mail = await smtp.waitForMail(email, /invitation/i, 20_000);
  return linkIn(mail);
}

function linkIn(mail: ReceivedMail): string {
  const link = /http:\/\/\S+\/\?invite=[a-z2-7]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no invitation link in:\n${mail.text}`);
  return link;
}

/** An admin page on the dashboard's `tab`, signed in through the API in the page's own cookies. */
async function adminPage(viewport: (typeof viewports)[keyof typeof viewports], tab: string): Promise<TestPage> {
  const t = await signedInPage(browser, server.url, admin, "admin", { viewport, reducedMotion: "reduce" });
  t.page.setDefaultTimeout(15_000);
  await t.page.goto(`/admin/dashboard?tab=${tab}`);
  return t;
}

async function expectAccessible(page: Page, include?: string[]) {
  const violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"], ...(include && { include }) });
  expect(violations, formatViolations(violations)).toEqual([]);
}

/** Invites through the Users tab's dialog as the admin would. */
async function inviteThroughUi(page: Page, name: string, email: string) {
  await page.getByRole("button", { name: "Invite client" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a client" });
  await dialog.getByLabel("Full Name").fill(name);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await toast(page, `Invitation sent to ${email}.`).waitFor();
  await dialog.waitFor({ state: "detached" });
  await page
    .getByRole("listitem", { name: `Invitation for ${name}` })
    .getByText("Pending", { exact: true })
    .waitFor();
}

describe("invitations", () => {
  it("the admin invites from the Users tab; the emailed link opens the accept form; the client lands on the dashboard", async () => {
    const clients = [
      { viewport: viewports.mobile, name: "Nora Invited", email: "nora.invited@example.com", username: "nora_invited" },
      { viewport: viewports.desktop, name: "Omar Invited", email: "omar.invited@example.com", username: "omar_invited" },
    ];
    for (const client of clients) {
      const a = await adminPage(client.viewport, "users");
      await screenshotOnFailure(a.page, `invite-admin-${client.viewport.width}`, async () => {
        await a.page.getByRole("heading", { name: "Invitations" }).waitFor();
        await a.page.getByRole("button", { name: "Invite client" }).click();
        const dialog = a.page.getByRole("dialog", { name: "Invite a client" });
        // The server's refusal shows on the field.
        await dialog.getByLabel("Full Name").fill(client.name);
        await dialog.getByLabel("Email").fill(admin.email);
        await dialog.getByRole("button", { name: "Send invitation" }).click();
        await dialog.getByText("An account with this email already exists").waitFor();
        await expectAccessible(a.page, ['[role="dialog"]']);
        await takeScreenshot(a.page, "invite-client-dialog");
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await inviteThroughUi(a.page, client.name, client.email);
        expect(await horizontalOverflow(a.page)).toBe(0);
        await expectAccessible(a.page);
        await takeScreenshot(a.page, "admin-users-invitations");
      });
      a.expectNoConsoleErrors({ allow: [/status of 409/] });
      await a.close();

      const link = await invitationLink(client.email);
      const t = await newPage(browser, { baseURL: server.url, viewport: client.viewport, reducedMotion: "reduce" });
      t.page.setDefaultTimeout(15_000);
      await screenshotOnFailure(t.page, `invite-accept-${client.viewport.width}`, async () => {
        await t.page.goto(link);
        const dialog = t.page.getByRole("dialog", { name: "Accept your invitation" });
        await dialog.getByLabel("Username").waitFor();
        // The token leaves the address bar at once.
        expect(new URL(t.page.url()).search).toBe("");
        expect(await dialog.getByLabel("Email").inputValue()).toBe(client.email);
        expect(await dialog.getByLabel("Email").getAttribute("readonly")).not.toBeNull();
        expect(await dialog.getByLabel("Full Name").inputValue()).toBe(client.name);
        await dialog.getByLabel("Username").fill(client.username);
        await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
        await dialog.getByLabel("Confirm Password").fill(PASSWORD);
        expect(await horizontalOverflow(t.page)).toBe(0);
        await expectAccessible(t.page, ['[role="dialog"]']);
        await takeScreenshot(t.page, "accept-invitation");
        // Registration's checks, on the field at fault.
        await dialog.getByLabel("Confirm Password").fill("something-else");
        await dialog.getByRole("button", { name: "Create Account" }).click();
        await dialog.getByText("Passwords do not match").waitFor();
        await dialog.getByLabel("Confirm Password").fill(PASSWORD);
        await dialog.getByRole("button", { name: "Create Account" }).click();
        await t.page.waitForURL(/\/dashboard$/);
        await t.page.getByRole("heading", { level: 1, name: `Welcome, ${client.name}!` }).waitFor();
        await takeScreenshot(t.page, "accepted-invitation-dashboard");
      });
      t.expectNoConsoleErrors();
      await t.close();

      // The link worked once.
      const again = await newPage(browser, { baseURL: server.url, viewport: client.viewport, reducedMotion: "reduce" });
      await screenshotOnFailure(again.page, `invite-used-${client.viewport.width}`, async () => {
        await again.page.goto(link);
        const dialog = again.page.getByRole("dialog", { name: "Accept your invitation" });
        await dialog.getByText("This invitation has already been used. Log in with the account it made.").waitFor();
        await takeScreenshot(again.page, "invitation-used");
        await dialog.getByRole("button", { name: "Go to Login" }).click();
        await again.page.getByRole("dialog", { name: "Client Portal" }).waitFor();
      });
      again.expectNoConsoleErrors({ allow: [/status of 409/] });
      await again.close();
    }

    const a = await adminPage(viewports.desktop, "users");
    await a.page.getByRole("listitem", { name: "Invitation for Omar Invited" }).getByText("Accepted", { exact: true }).waitFor();
    await a.close();
  }, 180_000);

  it("with registration by invitation only (the Site tab), the Register tab says so instead of its form", async () => {
    const mobile = await adminPage(viewports.mobile, "site&area=settings");
    await screenshotOnFailure(mobile.page, "registration-setting-390", async () => {
      const section = mobile.page.getByRole("region", { name: "Client registration" });
      await section.getByRole("radio", { name: /Anyone can register/ }).waitFor();
      expect(await section.getByRole("radio", { name: /Anyone can register/ }).isChecked()).toBe(true);
      expect(await horizontalOverflow(mobile.page)).toBe(0);
      await expectAccessible(mobile.page, ["#registration-setting-heading", '[aria-labelledby="registration-setting-heading"]']);
      await section.screenshot({ path: `${screenshotDir}/registration-setting-390.png` });
    });
    mobile.expectNoConsoleErrors();
    await mobile.close();

    const a = await adminPage(viewports.desktop, "site&area=settings");
    await screenshotOnFailure(a.page, "registration-setting", async () => {
      const section = a.page.getByRole("region", { name: "Client registration" });
      await section.getByRole("radio", { name: /By invitation only/ }).check();
      await toast(a.page, "Registration is now by invitation only.").waitFor();
      expect(await section.getByRole("radio", { name: /By invitation only/ }).isChecked()).toBe(true);
      await section.screenshot({ path: `${screenshotDir}/registration-setting-1280.png` });
    });
    a.expectNoConsoleErrors();
    await a.close();

    for (const viewport of [viewports.mobile, viewports.desktop]) {
      const t = await newPage(browser, { baseURL: server.url, viewport, reducedMotion: "reduce" });
      t.page.setDefaultTimeout(15_000);
      await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
      await screenshotOnFailure(t.page, `register-invite-only-${viewport.width}`, async () => {
        await t.page.goto("/");
        await t.page.getByRole("button", { name: "Client Portal", exact: true }).click();
        const dialog = t.page.getByRole("dialog", { name: "Client Portal" });
        await dialog.getByRole("tab", { name: "Register" }).click();
        await dialog.getByText("Registration is by invitation only").waitFor();
        expect(await dialog.getByRole("button", { name: "Create Account" }).count()).toBe(0);
        expect(await horizontalOverflow(t.page)).toBe(0);
        await expectAccessible(t.page, ['[role="dialog"]']);
        await takeScreenshot(t.page, "register-invite-only");
        await dialog.getByRole("button", { name: "Go to Login" }).click();
        await dialog.getByRole("tab", { name: "Login", selected: true }).waitFor();
      });
      t.expectNoConsoleErrors();
      await t.close();
    }

    // Where a refused Google sign-in lands (server/rest/google.ts): a new account under invite_only, and
    // a Google account of another address than the invitation's, which goes back to the invitation's form.
    const adminApi = await loginClient(server.url, admin, "admin");
    expect((await adminApi.post("/api/admin/invitations", { name: "Gwen Google", email: "gwen.google@example.com" })).status).toBe(201);
    const token = new URL(await invitationLink("gwen.google@example.com")).searchParams.get("invite")!;
    const t = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile, reducedMotion: "reduce" });
    t.page.setDefaultTimeout(15_000);
    await screenshotOnFailure(t.page, "google-refusals", async () => {
      await t.page.goto("/?auth_error=invite_only");
      await toast(t.page, "Registration is by invitation only").waitFor();
      await t.page.goto(`/?auth_error=invite_email&invite=${token}`);
      const dialog = t.page.getByRole("dialog", { name: "Accept your invitation" });
      await dialog.getByText("This invitation is for another email address.", { exact: false }).waitFor();
      expect(await dialog.getByLabel("Email").inputValue()).toBe("gwen.google@example.com");
      expect(await t.page.locator("[data-sonner-toast]", { hasText: "Authentication failed" }).count()).toBe(0);
    });
    t.expectNoConsoleErrors();
    await t.close();
  }, 120_000);
});
