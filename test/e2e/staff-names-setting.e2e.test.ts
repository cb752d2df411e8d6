/*
 * Issue 28, item 8, in Chromium: a client's Recent activity says "Your firm" for what the staff did,
 * never the staff member's login name; the firm turns on "Show staff names to clients" on the Site
 * tab, and the client then sees the staff member's display name. Both views pass axe at 1280 and 390 px.
 */
import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessibleAtBothWidths, releaseBrowser, screenshotOnFailure, sharedBrowser, type TestPage } from "../helpers/browser.ts";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;
let admin: TestPage;
let client: TestPage;
let adminUser: UserFixture;

beforeAll(async () => {
  server = await startTestServer();
  browser = await sharedBrowser();
  adminUser = await createUser(server.db, { is_admin: true, username: "ops_root", name: "Dana Whitfield" });
  const clientUser = await createUser(server.db, { name: "Greta Lindqvist" });
  // The client uploads a document and the firm downloads it: an entry by the firm in the client's trail.
  const api = await loginClient(server.url, clientUser);
  const form = new FormData();
  form.append("file", new Blob([randomBytes(64)]), "w2.pdf");
  const doc = await api.request("POST", "/api/documents/upload", { body: form });
  expect(doc.status).toBe(201);
  const firm = await loginClient(server.url, adminUser, "admin");
  expect((await firm.get(`/api/admin/documents/${doc.body.id}/download`)).status).toBe(200);
  admin = await signedInPage(browser, server.url, adminUser, "admin");
  client = await signedInPage(browser, server.url, clientUser, "client");
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await client?.close();
  await releaseBrowser(browser);
  await server?.close();
});

describe("staff names in a client's activity", () => {
  it("the client sees Your firm, never the login name", async () => {
    const { page } = client;
    await screenshotOnFailure(page, "staff-names-client-default", async () => {
      await page.goto("/dashboard");
      const trail = page.getByRole("list", { name: "Recent activity" });
      await trail.getByText("Your firm downloaded w2.pdf").waitFor();
      expect(await page.locator("body").innerText()).not.toContain("ops_root");
    });
  });

  it("the firm turns on staff names on the Site tab, and the client sees Dana Whitfield", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "staff-names-admin-setting", async () => {
      await page.goto("/admin/dashboard?tab=site&area=settings");
      const box = page.getByRole("checkbox", { name: "Show staff names to clients" });
      await box.waitFor();
      expect(await box.isChecked()).toBe(false);
      await box.check();
      await page.locator("[data-sonner-toast]", { hasText: "Clients now see staff names." }).first().waitFor();
      await expectAccessibleAtBothWidths(page, "staff-names-admin-setting", [
        "#activity-settings-heading",
        "section:has(#activity-settings-heading)",
      ]);
    });
    await client.page.reload();
    await client.page.getByRole("list", { name: "Recent activity" }).getByText("Dana Whitfield downloaded w2.pdf").waitFor();
    expect(await client.page.locator("body").innerText()).not.toContain("ops_root");
    await expectAccessibleAtBothWidths(client.page, "staff-names-client-named");
    client.expectNoConsoleErrors();
    admin.expectNoConsoleErrors();
  });
});
