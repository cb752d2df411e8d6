/*
 * The firm and a client working together, end to end in Chromium against the real server: the
 * admin asks the client for two sets of documents; the client sees both, uploads against one and
 * submits it; the firm's Inbox tells the admin, who marks the request done and shares the finished
 * tax return from the client's page; the client previews it (marked "From your firm"); and both
 * activity views (the client's Recent activity, the firm's Activity tab) show every step. One
 * server, one admin page and one client page, in order.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { expectAccessibleAtBothWidths, releaseBrowser, screenshotOnFailure, sharedBrowser, type TestPage } from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import { fillNewRequest } from "../helpers/request-dialog.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const DAY = 24 * 60 * 60 * 1000;
const RETURN_NAME = "Form 1040 for 2025.txt";
const RETURN_TEXT = "Form 1040 (2025), prepared and signed by your firm.";

let server: TestServer;
let browser: Browser;
let adminUser: UserFixture;
let clientUser: UserFixture;
let admin: TestPage;
let client: TestPage;

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first();
const documentRow = (page: Page, name: string) => page.getByRole("list", { name: "Documents" }).getByRole("listitem").filter({ hasText: name });
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Finds `sentence` in a paged activity list, asking for older pages until it shows or none are left. */
async function expectActivity(list: Locator, more: Locator, sentence: string | RegExp) {
  for (;;) {
    if ((await list.getByText(sentence).count()) > 0) return;
    if ((await more.count()) === 0) throw new Error(`No activity entry ${String(sentence)}`);
    await more.click();
    await more.or(list.getByText(sentence)).first().waitFor();
  }
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await sharedBrowser();
  adminUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  clientUser = await createUser(server.db, { name: "Greta Flow" });
  // Her account named by her name, as registration names it (the factory names it by the username).
  await server.db.updateTable("accounts").set({ name: "Greta Flow" }).where("id", "=", clientUser.id).execute();
  // A client who confirmed their address: sharing with an unverified one asks first (firm-shared-documents.e2e.test.ts).
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", clientUser.id).execute();
  await server.db.insertInto("folders").values({ account_id: clientUser.id, name: "Taxes 2025", color: "#10B981" }).execute();
  admin = await signedInPage(browser, server.url, adminUser, "admin", { reducedMotion: "reduce" });
  client = await signedInPage(browser, server.url, clientUser, "client", { reducedMotion: "reduce" });
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await client?.close();
  await releaseBrowser(browser);
  await server?.close();
});

describe("the firm and its client", { timeout: 120_000 }, () => {
  it("the admin asks the client for two sets of documents", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "flow-admin-requests", async () => {
      await page.goto("/admin/dashboard?tab=requests");
      for (const request of [
        { title: "2025 W-2 forms", due: isoDay(new Date(Date.now() + 10 * DAY)), folder: "Taxes 2025" },
        { title: "1099-INT from your bank", due: isoDay(new Date(Date.now() + 20 * DAY)) },
      ]) {
        const dialog = await fillNewRequest(page, { client: "Greta Flow", ...request });
        await dialog.getByRole("button", { name: "Send request" }).click();
        await dialog.waitFor({ state: "detached" });
      }
      await page.getByRole("table", { name: "Document requests" }).getByText("1099-INT from your bank").waitFor();
    });
  });

  it("the client sees both requests, uploads against one and submits it", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "flow-client-submit", async () => {
      await page.goto("/dashboard");
      const card = page.getByRole("region", { name: "Requests from your firm" });
      await card.getByRole("listitem", { name: "1099-INT from your bank" }).waitFor();
      const w2 = card.getByRole("listitem", { name: "2025 W-2 forms" });
      await w2
        .getByLabel("Choose files for 2025 W-2 forms")
        .setInputFiles([{ name: "w2-acme.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") }]);
      await toast(page, "uploaded for “2025 W-2 forms”").waitFor();
      await w2.getByRole("button", { name: "Mark submitted" }).click();
      await w2.getByText("Submitted · waiting for your firm").waitFor();
    });
  });

  it("the firm's Inbox tells the admin; opening it leads to the request, which the admin marks done", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "flow-admin-inbox", async () => {
      await page.goto("/admin/dashboard?tab=inbox");
      // The client's upload and the submitted request: two unread items, counted on the tab.
      await page.getByRole("tab", { name: "Inbox 2 unread" }).waitFor();
      const inbox = page.getByRole("list", { name: "Inbox items" });
      // Issue 34: items name the person, not their username, and open the client's record.
      await inbox.getByText("Greta Flow uploaded a file").waitFor();
      const submitted = inbox.getByRole("button", { name: /^Unread: Greta Flow submitted "2025 W-2 forms"/ });
      await expectAccessibleAtBothWidths(page, "flow-admin-inbox");

      await submitted.click();
      await page.waitForURL(`**/admin/accounts/${clientUser.id}?section=requests*`);
      const row = page.getByRole("table", { name: "Document requests" }).getByRole("row").filter({ hasText: "2025 W-2 forms" });
      await row.getByRole("button", { name: "Mark done: 2025 W-2 forms for Greta Flow" }).click();
      const dialog = page.getByRole("dialog", { name: "Mark the request done" });
      await dialog.getByLabel("Comment for the client").fill("Thank you, we have what we need.");
      await dialog.getByRole("button", { name: "Mark done" }).click();
      await toast(page, "Request marked done").waitFor();
      expect(
        (await server.db.selectFrom("document_requests").select("status").where("title", "=", "2025 W-2 forms").executeTakeFirstOrThrow()).status,
      ).toBe("done");
    });
  });

  it("the admin shares the finished tax return from the client's page", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "flow-admin-share", async () => {
      await page.goto("/admin/dashboard");
      await page.getByRole("tab", { name: "Clients" }).click();
      // The account's name and its person's are both "Greta Flow": either leads to her record.
      await page.getByRole("link", { name: "Greta Flow", exact: true }).first().click();
      // The client's record (issue 34): its Documents section.
      await page.waitForURL(new RegExp(`/admin/(users|accounts)/${clientUser.id}`));
      const sections = page.getByRole("tablist", { name: "Client record sections" });
      await sections
        .or(page.getByRole("button", { name: "Taxes 2025" }))
        .first()
        .waitFor();
      if (await sections.isVisible()) await sections.getByRole("tab", { name: "Documents" }).click();
      await page.getByRole("button", { name: "Taxes 2025" }).click();
      await page.getByText('Uploading to folder "Taxes 2025"').waitFor();
      await page.getByTestId("upload-input").setInputFiles([{ name: RETURN_NAME, mimeType: "text/plain", buffer: Buffer.from(RETURN_TEXT) }]);
      await toast(page, "File uploaded successfully").waitFor();
      await documentRow(page, RETURN_NAME).getByText("Shared by the firm").waitFor();
    });
    admin.expectNoConsoleErrors();
  });

  it("the client previews the return, marked as from the firm, and their Recent activity shows every step", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "flow-client-preview", async () => {
      await page.reload();
      await page.getByRole("list", { name: "Folders" }).getByRole("button", { name: "Taxes 2025", exact: true }).click();
      const row = documentRow(page, RETURN_NAME);
      await row.getByText("From your firm").waitFor();
      await row.getByRole("button", { name: RETURN_NAME, exact: true }).click();
      const viewer = page.getByRole("dialog", { name: RETURN_NAME });
      await viewer.getByText(RETURN_TEXT).waitFor();
      await page.keyboard.press("Escape");
      await viewer.waitFor({ state: "detached" });
      // Views change nothing, so nothing refreshes the card: the next visit shows them.
      await page.reload();

      const trail = page.getByRole("list", { name: "Recent activity" });
      const more = page.getByRole("button", { name: "Show more" });
      await trail.getByText(`You viewed ${RETURN_NAME}`).first().waitFor();
      for (const sentence of [
        "Your firm asked for “2025 W-2 forms”",
        "Your firm asked for “1099-INT from your bank”",
        "You uploaded w2-acme.pdf to Taxes 2025",
        "You submitted the request “2025 W-2 forms”",
        "Your firm marked the request “2025 W-2 forms” done",
        `Your firm uploaded ${RETURN_NAME} to Taxes 2025`,
      ]) {
        await expectActivity(trail, more, sentence);
      }
    });
    client.expectNoConsoleErrors();
  });

  it("the firm's Activity tab shows the same steps for that client", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "flow-admin-activity", async () => {
      await page.goto("/admin/dashboard?tab=activity");
      const clientChoice = page.getByLabel("Client", { exact: true });
      await clientChoice.locator("option", { hasText: "Greta Flow" }).waitFor({ state: "attached" });
      await clientChoice.selectOption({ label: `Greta Flow (${clientUser.username})` });
      const table = page.getByRole("table");
      const more = page.getByRole("button", { name: "Load more" });
      // People by their names (issue 48): the client, and the firm's person who acted.
      const greta = "Greta Flow";
      const office = "Office Admin";
      await table.getByText(`${greta} viewed ${RETURN_NAME}`).first().waitFor();
      for (const sentence of [
        `${office} asked ${greta} for “2025 W-2 forms”`,
        `${office} asked ${greta} for “1099-INT from your bank”`,
        `${greta} uploaded w2-acme.pdf to Taxes 2025`,
        `${greta} submitted the request “2025 W-2 forms”`,
        `${office} marked ${greta}'s request “2025 W-2 forms” done`,
        `${office} uploaded ${greta}'s ${RETURN_NAME} to Taxes 2025`,
      ]) {
        await expectActivity(table, more, sentence);
      }
      await expectAccessibleAtBothWidths(page, "flow-admin-activity");
    });
    admin.expectNoConsoleErrors();
  });
});
