/*
 * A household in Chromium against the real server, database and a test SMTP server (issue 32's
 * "Done when"): the firm creates a household account for a client from its Clients tab and invites
 * her spouse from the account's page, the spouse accepts the emailed link on a phone (390 px) and
 * uploads a W-2, the client sees it marked with his name, both see the firm's message, and once the
 * firm removes the spouse on the account's page his next request shows nothing of the account. With
 * a second account the client gets the account switcher in the top bar. Axe and screenshots at 390
 * and 1280 px. (The client's own invitation from Settings is covered by the API tests of
 * /api/account/contacts.)
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import {
  expectAccessibleAtBothWidths,
  horizontalOverflow,
  newPage,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let browser: Browser;
let maria: UserFixture;
let firm: ApiClient;
let firmUser: UserFixture;
let firmPage: TestPage;
let householdId: string;
let mariaPage: TestPage;
let jamesPage: TestPage;

const SPOUSE_EMAIL = "james.garcia@example.com";
const PASSWORD = "Amber-Quay-Ledger-57";
const FIRM_MESSAGE = "Thanks, both of you: we have what we need for the joint return.";

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  browser = await sharedBrowser();
  maria = await createUser(server.db, { name: "Maria Garcia" });
  // A client the firm knows, whose address is proven, and who has no account with the firm yet.
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", maria.id).execute();
  await server.db.deleteFrom("accounts").where("id", "=", maria.id).execute();
  firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  firm = await loginClient(server.url, firmUser, "admin");
}, 120_000);

afterAll(async () => {
  await firmPage?.close();
  await mariaPage?.close();
  await jamesPage?.close();
  await releaseBrowser(browser);
  await server?.close();
  await smtp?.stop();
});

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first();

describe("a household shared by two people", () => {
  it("the firm creates the household for the client from its Clients tab, and invites the spouse from the account's page", async () => {
    firmPage = await signedInPage(browser, server.url, firmUser, "admin", { reducedMotion: "reduce" });
    const { page } = firmPage;
    page.setDefaultTimeout(15_000);
    await screenshotOnFailure(page, "household-firm-create", async () => {
      await page.goto("/admin");
      await page.getByRole("tab", { name: "Clients" }).click();
      await page.getByRole("button", { name: "New client account" }).click();
      const create = page.getByRole("dialog", { name: "New client account" });
      await create.getByLabel("Account name").fill("Garcia household");
      await create.getByLabel("Kind").selectOption({ label: "Household" });
      await create.getByLabel("Full Name").fill("Maria Garcia");
      await create.getByLabel("Email").fill(maria.email);
      await create.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(/\/admin\/accounts\/[0-9a-f-]{36}$/);
      householdId = new URL(page.url()).pathname.split("/").pop()!;
      const people = page.getByRole("list", { name: "People of Garcia household" });
      await people.getByRole("listitem", { name: "Maria Garcia" }).waitFor();

      await page.getByRole("button", { name: "Invite a person" }).click();
      const invite = page.getByRole("dialog", { name: "Invite a person to Garcia household" });
      await invite.getByLabel("Full Name").fill("James Garcia");
      await invite.getByLabel("Email").fill(SPOUSE_EMAIL);
      await invite.getByRole("button", { name: "Invite" }).click();
      await toast(page, `${SPOUSE_EMAIL} was added to Garcia household.`).waitFor();
      await people.getByRole("listitem", { name: "James Garcia" }).getByText("Invited").waitFor();
      await takeScreenshot(page, "household-firm-people");
    });
    const account = await firm.get(`/api/admin/accounts/${householdId}`);
    expect(account.body).toMatchObject({ name: "Garcia household", kind: "household" });
    expect(account.body.contacts.map((c: { name: string; role: string; user_id: string | null }) => [c.name, c.role, c.user_id])).toEqual([
      ["Maria Garcia", "owner", maria.id],
      ["James Garcia", "member", null],
    ]);
  });

  it("the spouse accepts on a phone and uploads a W-2", async () => {
    const mail = await smtp.waitForMail(SPOUSE_EMAIL, /invitation/i, 20_000);
    const link = /http:\/\/\S+\/\?invite=[a-z2-7]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    jamesPage = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile, reducedMotion: "reduce" });
    const { page } = jamesPage;
    page.setDefaultTimeout(15_000);
    await screenshotOnFailure(page, "household-spouse", async () => {
      await page.goto(link!);
      const dialog = page.getByRole("dialog", { name: "Join Garcia household" });
      await dialog.getByLabel("Username").waitFor();
      expect(await dialog.getByLabel("Full Name").inputValue()).toBe("James Garcia");
      await dialog.getByLabel("Username").fill("james_garcia");
      await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await dialog.getByLabel("Confirm Password").fill(PASSWORD);
      expect(await horizontalOverflow(page)).toBe(0);
      await takeScreenshot(page, "household-join");
      await dialog.getByRole("button", { name: "Create Account" }).click();
      await page.waitForURL(/\/dashboard$/);
      // The account's (empty) list first, as a person sees it before choosing a file.
      await page.getByText("No documents in root folder.").waitFor();
      await page
        .getByTestId("upload-input")
        .setInputFiles({ name: "James W-2 2026.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 wages") });
      await page.getByText("File uploaded successfully").waitFor();
      const stored = await server.db.selectFrom("documents").select("account_id").where("original_filename", "=", "James W-2 2026.pdf").execute();
      expect(stored).toEqual([{ account_id: householdId }]);
      await page.getByRole("button", { name: "James W-2 2026.pdf", exact: true }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await takeScreenshot(page, "household-spouse-uploaded");
    });
  });

  it("the client sees the W-2 marked with the spouse's name", async () => {
    mariaPage = await signedInPage(browser, server.url, maria, "client", { reducedMotion: "reduce" });
    const { page } = mariaPage;
    page.setDefaultTimeout(15_000);
    await screenshotOnFailure(page, "household-marked", async () => {
      await page.goto("/dashboard");
      const row = page.getByRole("listitem").filter({ has: page.getByRole("button", { name: "James W-2 2026.pdf", exact: true }) });
      await row.getByText("Uploaded by James Garcia").waitFor();
      await expectAccessibleAtBothWidths(page, "household-documents");
    });
  });

  it("both see the firm's message", async () => {
    const sent = await firm.post(`/api/admin/messages/${householdId}`, { text: FIRM_MESSAGE });
    expect(sent.status, sent.text).toBe(201);
    for (const [t, name] of [
      [mariaPage, "household-messages-maria"],
      [jamesPage, "household-messages-james"],
    ] as const) {
      await screenshotOnFailure(t.page, name, async () => {
        await t.page.goto("/dashboard?tab=messages");
        await t.page.getByRole("log", { name: "Messages" }).getByText(FIRM_MESSAGE).waitFor();
        await takeScreenshot(t.page, name);
      });
    }
  });

  it("with a second account the client switches from the top bar, and sees only that account's files", async () => {
    const business = await server.db
      .insertInto("accounts")
      .values({ name: "Garcia Landscaping LLC", kind: "business" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await server.db.insertInto("account_contacts").values({ account_id: business.id, user_id: maria.id, role: "owner" }).execute();
    const { page } = mariaPage;
    await screenshotOnFailure(page, "household-switcher", async () => {
      await page.goto("/dashboard");
      const switcher = page.getByRole("button", { name: /^Account: Garcia household \(Household\)/ });
      await switcher.click();
      await page.getByRole("menuitem", { name: /Garcia Landscaping LLC/ }).waitFor();
      await expectAccessibleAtBothWidths(page, "household-switcher-open", ["[role='menu']"]);
      await page.getByRole("menuitem", { name: /Garcia Landscaping LLC/ }).click();
      await page.getByRole("button", { name: /^Account: Garcia Landscaping LLC \(Business\)/ }).waitFor();
      await page.getByRole("button", { name: "James W-2 2026.pdf", exact: true }).waitFor({ state: "detached" });
      await expectAccessibleAtBothWidths(page, "household-switched");
      await page.getByRole("button", { name: /^Account: Garcia Landscaping LLC/ }).click();
      await page.getByRole("menuitem", { name: /Garcia household/ }).click();
      await page.getByRole("button", { name: "James W-2 2026.pdf", exact: true }).waitFor();
    });
  });

  it("once the firm removes the spouse, his next request shows nothing of the account", async () => {
    await screenshotOnFailure(firmPage.page, "household-firm-remove", async () => {
      const { page } = firmPage;
      await page.goto(`/admin/accounts/${householdId}`);
      const people = page.getByRole("list", { name: "People of Garcia household" });
      await people.getByRole("button", { name: "Remove James Garcia" }).click();
      await page.getByRole("alertdialog", { name: "Remove James Garcia from Garcia household?" }).getByRole("button", { name: "Remove" }).click();
      await people.getByRole("listitem", { name: "James Garcia" }).waitFor({ state: "detached" });
      await people.getByRole("listitem", { name: "Maria Garcia" }).waitFor();
    });
    const { page } = jamesPage;
    await screenshotOnFailure(page, "household-removed", async () => {
      const documents = await page.request.get("/api/documents/root");
      expect(documents.status()).toBe(404);
      expect(await documents.json()).toEqual({ detail: "No client account is open for you" });
      expect(await (await page.request.get("/api/accounts")).json()).toEqual([]);
      await page.goto("/dashboard");
      await page.getByRole("heading", { level: 1, name: "No client account is open for you" }).waitFor();
      await page.waitForLoadState("networkidle");
      expect(await page.getByText("James W-2 2026.pdf").count()).toBe(0);
      expect(await page.getByText(FIRM_MESSAGE).count()).toBe(0);
      await expectAccessibleAtBothWidths(page, "household-removed");
    });
  });
});
