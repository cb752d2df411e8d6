/*
 * Document requests in Chromium against the real server: the admin asks a client for two sets of
 * documents in the Requests tab (one into a folder of the client's), the client sees both first
 * thing on the dashboard (one overdue, marked in words), uploads against one and submits it, and the
 * admin finds it submitted and marks it done with a comment, which the client then sees. Every view
 * passes axe at 1280 and 390 px. Then a checklist (issue 34): the admin keeps a template, asks
 * from it, the client on a phone uploads to one item, removes a wrong file and adds the right one
 * after submitting, and the admin marks the items done. The steps share one server and run in order.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectAccessibleAtBothWidths,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { fillNewRequest, type RequestFields } from "../helpers/request-dialog.ts";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Monday March 1, 2027, 9:00 in Chicago. */
const NOW = new Date("2027-03-01T15:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let browser: Browser;
let admin: TestPage;
let client: TestPage;
let adminUser: UserFixture;
let clientUser: UserFixture;
let taxesFolderId: string;

async function expectToast(page: Page, message: string) {
  await page.locator("[data-sonner-toast]", { hasText: message }).first().waitFor({ timeout: 10_000 });
}

beforeAll(async () => {
  server = await startTestServer();
  server.clock.set(NOW);
  browser = await sharedBrowser();
  adminUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  clientUser = await createUser(server.db, { name: "Greta Lindqvist" });
  const api = await loginClient(server.url, clientUser);
  const folder = await api.post("/api/folders", { name: "Taxes 2026" });
  taxesFolderId = folder.body.id as string;
  admin = await signedInPage(browser, server.url, adminUser, "admin", { timezoneId: "America/Chicago", clock: server.clock.now() });
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await client?.close();
  await releaseBrowser(browser);
  await server?.close();
});

describe("document requests", () => {
  it("the admin asks the client for two sets of documents, one into the client's folder", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "requests-admin-create", async () => {
      await page.goto("/admin/dashboard?tab=requests");
      await page.getByText("No document requests yet.").waitFor();

      const ask = (fields: Omit<RequestFields, "client">) => fillNewRequest(page, { client: "Greta Lindqvist", ...fields });

      const first = await ask({ title: "2026 W-2 forms", description: "From both employers, please.", due: "2027-03-12", folder: "Taxes 2026" });
      await expectAccessibleAtBothWidths(page, "requests-admin-new-dialog", ['[role="dialog"]']);
      await first.getByRole("button", { name: "Send request" }).click();
      await expectToast(page, "Request sent to Greta Lindqvist");
      await first.waitFor({ state: "detached" });

      const second = await ask({ title: "December bank statements", description: "All business accounts.", due: "2027-03-02" });
      await second.getByRole("button", { name: "Send request" }).click();
      await second.waitFor({ state: "detached" });

      const table = page.getByRole("table", { name: "Document requests" });
      await table.getByText("December bank statements").waitFor();
      await table.getByText("Into Taxes 2026").waitFor();
      const rows = await server.db
        .selectFrom("document_requests")
        .select(["title", "due_date", "folder_id", "status"])
        .where("account_id", "=", clientUser.id)
        .orderBy("created_at")
        .execute();
      expect(rows).toEqual([
        { title: "2026 W-2 forms", due_date: "2027-03-12", folder_id: taxesFolderId, status: "open" },
        { title: "December bank statements", due_date: "2027-03-02", folder_id: null, status: "open" },
      ]);
      await expectAccessibleAtBothWidths(page, "requests-admin-list");
    });
  });

  it("two days later, the client sees both first on the dashboard, the late one marked overdue", async () => {
    server.clock.set(new Date(NOW.getTime() + 2 * DAY));
    client = await signedInPage(browser, server.url, clientUser, "client", { timezoneId: "America/Chicago", clock: server.clock.now() });
    const { page } = client;
    await screenshotOnFailure(page, "requests-client-card", async () => {
      await page.goto("/dashboard");
      const card = page.getByRole("region", { name: "Requests from your firm" });
      await card.waitFor();
      // First thing on the dashboard: before the dashboard's tabs.
      const beforeTabs = await card.evaluate((element) => {
        const tabs = document.querySelector('[role="tablist"]');
        return tabs !== null && Boolean(element.compareDocumentPosition(tabs) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(beforeTabs).toBe(true);

      const late = card.getByRole("listitem", { name: "December bank statements" });
      await late.getByText("Overdue", { exact: true }).waitFor();
      await late.getByText("Overdue: was due Mar 2, 2027").waitFor();
      const w2 = card.getByRole("listitem", { name: "2026 W-2 forms" });
      await w2.getByText("Due Mar 12, 2027").waitFor();
      await w2.getByText("Uploads go to Taxes 2026").waitFor();
      expect(await w2.getByRole("button", { name: "Mark submitted" }).isDisabled()).toBe(true);
      await expectAccessibleAtBothWidths(page, "requests-client-card");
    });
  });

  it("the client uploads against the W-2 request and submits it", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "requests-client-submit", async () => {
      const w2 = page.getByRole("listitem", { name: "2026 W-2 forms" });
      await w2.getByLabel("Choose files for 2026 W-2 forms").setInputFiles([
        { name: "w2-acme.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
        { name: "w2-harbor.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
      ]);
      await expectToast(page, "2 files uploaded for “2026 W-2 forms”");
      await w2.getByText("w2-harbor.pdf").waitFor();
      await w2.getByRole("button", { name: "Mark submitted" }).click();
      await expectToast(page, "“2026 W-2 forms” submitted to your firm");
      await w2.getByText("Submitted · waiting for your firm").waitFor();
      expect(await w2.getByRole("button", { name: "Upload" }).count()).toBe(0);

      const documents = await server.db
        .selectFrom("documents")
        .innerJoin("document_requests", "document_requests.id", "documents.request_id")
        .select(["documents.original_filename", "documents.folder_id", "document_requests.status"])
        .where("documents.account_id", "=", clientUser.id)
        .orderBy("documents.original_filename")
        .execute();
      expect(documents).toEqual([
        { original_filename: "w2-acme.pdf", folder_id: taxesFolderId, status: "submitted" },
        { original_filename: "w2-harbor.pdf", folder_id: taxesFolderId, status: "submitted" },
      ]);
      await expectAccessibleAtBothWidths(page, "requests-client-submitted");
      client.expectNoConsoleErrors();
    });
  });

  it("the admin finds it submitted and marks it done with a comment, which the client sees", async () => {
    // The admin's session went idle while the clock moved on: a new sign-in.
    await admin.close();
    admin = await signedInPage(browser, server.url, adminUser, "admin", { timezoneId: "America/Chicago", clock: server.clock.now() });
    const { page } = admin;
    await screenshotOnFailure(page, "requests-admin-done", async () => {
      await page.goto("/admin/dashboard?tab=requests");
      await page.getByLabel("Status", { exact: true }).selectOption("submitted");
      const table = page.getByRole("table", { name: "Document requests" });
      const row = table.getByRole("row").filter({ hasText: "2026 W-2 forms" });
      await row.waitFor();
      expect(await table.getByText("December bank statements").count()).toBe(0);
      await row.getByRole("cell", { name: "2", exact: true }).waitFor();

      await row.getByRole("button", { name: "Mark done: 2026 W-2 forms for Greta Lindqvist" }).click();
      const dialog = page.getByRole("dialog", { name: "Mark the request done" });
      await dialog.getByLabel("Comment for the client").fill("Thank you, both W-2s are here.");
      await expectAccessibleAtBothWidths(page, "requests-admin-done-dialog", ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Mark done" }).click();
      await expectToast(page, "Request marked done");
      await dialog.waitFor({ state: "detached" });
      await page.getByLabel("Status", { exact: true }).selectOption("done");
      await table.getByRole("row").filter({ hasText: "2026 W-2 forms" }).waitFor();
      await expectAccessibleAtBothWidths(page, "requests-admin-done");
    });

    const clientPage = client.page;
    await screenshotOnFailure(clientPage, "requests-client-done", async () => {
      await clientPage.reload();
      const card = clientPage.getByRole("region", { name: "Requests from your firm" });
      await card.getByText("Completed requests (1)").click();
      await card.getByText("Thank you, both W-2s are here.").waitFor();
      await card.getByRole("listitem", { name: "December bank statements" }).waitFor();
      await expectAccessibleAtBothWidths(clientPage, "requests-client-done");
      client.expectNoConsoleErrors();
    });
  });

  it("checklists: the admin keeps a template, asks from it, the client on a phone uploads per item and removes a wrong file, the admin marks items done", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "checklist-admin-template", async () => {
      await page.goto("/admin/dashboard?tab=requests");
      await page.getByRole("button", { name: "Templates" }).click();
      const templates = page.getByRole("dialog", { name: "Request templates" });
      await templates.getByText("No templates yet.", { exact: false }).waitFor();
      await templates.getByRole("button", { name: "New template" }).click();
      const form = page.getByRole("dialog", { name: "New template" });
      await form.getByLabel("Title").fill("2026 tax documents");
      await form.getByLabel("Message for the client").fill("What we need for your 2026 return.");
      await form.getByRole("button", { name: "Add item" }).click();
      // The new row takes the focus.
      await page.keyboard.type("2026 W-2 from each employer");
      await form.getByRole("button", { name: "Add item" }).click();
      await form.getByRole("textbox", { name: "Item 2", exact: true }).fill("Property tax bill");
      await form.getByRole("button", { name: "Add item" }).click();
      await form.getByRole("textbox", { name: "Item 3", exact: true }).fill("Old item");
      await form.getByRole("button", { name: "Remove item 3: Old item" }).click();
      await expectAccessibleAtBothWidths(page, "checklist-admin-template-form", ['[role="dialog"]']);
      await form.getByRole("button", { name: "Save template" }).click();
      await expectToast(page, "Template “2026 tax documents” saved");
      const list = page.getByRole("dialog", { name: "Request templates" });
      await list.getByText("2 items").waitFor();
      await page.keyboard.press("Escape");
      await list.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "New request" }).click();
      const dialog = page.getByRole("dialog", { name: "New document request" });
      await dialog.getByLabel("Search clients by account name, person or email").fill("Greta");
      await dialog.getByRole("radio", { name: /Greta Lindqvist/ }).check();
      await dialog.getByLabel("Start from a template").selectOption({ label: "2026 tax documents" });
      expect(await dialog.getByLabel("What do you need?").inputValue()).toBe("2026 tax documents");
      expect(await dialog.getByRole("textbox", { name: "Item 1", exact: true }).inputValue()).toBe("2026 W-2 from each employer");
      expect(await dialog.getByRole("textbox", { name: "Item 2", exact: true }).inputValue()).toBe("Property tax bill");
      await dialog.getByLabel("Due date").fill("2027-03-20");
      await expectAccessibleAtBothWidths(page, "checklist-admin-new-request", ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Send request" }).click();
      await expectToast(page, "Request sent to Greta Lindqvist");
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Checklist: 0 of 2 done").waitFor();
    });

    // The client, on a phone.
    const phone = await signedInPage(browser, server.url, clientUser, "client", {
      timezoneId: "America/Chicago",
      clock: server.clock.now(),
      viewport: viewports.mobile,
    });
    try {
      const p = phone.page;
      await screenshotOnFailure(p, "checklist-client-phone", async () => {
        await p.goto("/dashboard");
        const request = p.getByRole("listitem", { name: "2026 tax documents" });
        const checklist = request.getByRole("list", { name: "Checklist for 2026 tax documents" });
        const w2 = checklist.getByRole("listitem", { name: "2026 W-2 from each employer" });
        const taxBill = checklist.getByRole("listitem", { name: "Property tax bill" });
        await request.getByText("2 of 2 items still needed.").waitFor();
        await w2.getByText("Needed").waitFor();
        await takeScreenshot(p, "checklist-client-phone-start");

        await w2
          .getByLabel("Choose files for 2026 W-2 from each employer")
          .setInputFiles([{ name: "beach-photo.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") }]);
        await expectToast(p, "File uploaded for “2026 W-2 from each employer”");
        await w2.getByText("Uploaded", { exact: true }).waitFor();
        await w2.getByRole("button", { name: "Remove beach-photo.pdf" }).click();
        await expectToast(p, "File removed. It is in your trash if you need it back.");
        await w2.getByRole("button", { name: "Remove beach-photo.pdf" }).waitFor({ state: "detached" });
        await w2.getByText("Needed").waitFor();
        // The removed row's focus went to the item's Upload button.
        expect(await p.evaluate(() => document.activeElement?.textContent)).toContain("Upload for 2026 W-2 from each employer");

        await w2
          .getByLabel("Choose files for 2026 W-2 from each employer")
          .setInputFiles([{ name: "w2-acme-2026.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") }]);
        await w2.getByRole("button", { name: "Remove w2-acme-2026.pdf" }).waitFor();
        // An item still needed: Mark submitted asks first, naming it (issue 48).
        await request.getByRole("button", { name: "Mark submitted" }).click();
        const ask = p.getByRole("alertdialog", { name: "Submit without 1 item?" });
        await ask.getByRole("listitem").getByText("Property tax bill").waitFor();
        await ask.getByRole("button", { name: "Submit anyway" }).click();
        await request.getByText("Submitted · waiting for your firm").waitFor();
        // After submitting, the other item still takes its file.
        await taxBill
          .getByLabel("Choose files for Property tax bill")
          .setInputFiles([{ name: "property-tax-2026.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") }]);
        await taxBill.getByRole("button", { name: "Remove property-tax-2026.pdf" }).waitFor();
        await request.getByText("Every item has a file.").waitFor();
        await expectAccessibleAtBothWidths(p, "checklist-client-uploaded");
        await p.setViewportSize(viewports.mobile);
        await request.scrollIntoViewIfNeeded();
        await takeScreenshot(p, "checklist-client-phone-uploaded");
        phone.expectNoConsoleErrors();
      });

      await screenshotOnFailure(page, "checklist-admin-done", async () => {
        await page.reload();
        await page.getByRole("button", { name: "Checklist: 2026 tax documents for Greta Lindqvist" }).click();
        const dialog = page.getByRole("dialog", { name: "Checklist" });
        await dialog.getByText("w2-acme-2026.pdf").waitFor();
        expect(await dialog.getByText("beach-photo.pdf").count()).toBe(0);
        await dialog.getByRole("button", { name: "Mark done 2026 W-2 from each employer" }).click();
        await expectToast(page, "“2026 W-2 from each employer” marked done");
        await dialog.getByRole("button", { name: "Reopen 2026 W-2 from each employer" }).waitFor();
        await dialog.getByRole("button", { name: "Mark done Property tax bill" }).click();
        await dialog.getByText("2 of 2 done", { exact: false }).waitFor();
        await expectAccessibleAtBothWidths(page, "checklist-admin-checklist-dialog", ['[role="dialog"]']);
        await page.keyboard.press("Escape");
        await page.getByText("Checklist: 2 of 2 done").waitFor();
      });

      await screenshotOnFailure(p, "checklist-client-done", async () => {
        await p.reload();
        const w2 = p.getByRole("listitem", { name: "2026 W-2 from each employer" });
        await w2.getByText("Done", { exact: true }).waitFor();
        // Marked done: the files stay, and neither Remove nor Upload is offered.
        expect(await w2.getByRole("button").count()).toBe(0);
        await p.getByRole("listitem", { name: "2026 tax documents" }).scrollIntoViewIfNeeded();
        await takeScreenshot(p, "checklist-client-phone-done");
        await expectAccessibleAtBothWidths(p, "checklist-client-done");
        phone.expectNoConsoleErrors();
      });
    } finally {
      await phone.close();
    }
    // One story of three people's steps (template, phone, firm), each waiting on the page.
  }, 180_000);
});
