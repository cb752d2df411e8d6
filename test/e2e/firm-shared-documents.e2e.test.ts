/*
 * The firm shares a document with a client, in Chromium against the real server: the admin opens
 * the client from the Users tab, goes into one of the client's folders and uploads a file there;
 * the client finds it in that folder with the "From your firm" badge and previews it. At 390 and
 * 1280 px, with axe, overflow checks and screenshots of both pages.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTest } from "../helpers/browser-test.ts";
import {
  checkA11y,
  formatViolations,
  horizontalOverflow,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  viewports,
} from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;
let admin: UserFixture;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server.db, { is_admin: true });
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

const it = browserTest(() => ({ browser, baseUrl: server.url }));

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first();
const documentRow = (page: Page, name: string) => page.getByRole("list", { name: "Documents" }).getByRole("listitem").filter({ hasText: name });

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"] });
  expect(violations, `${what}: ${formatViolations(violations)}`).toEqual([]);
  expect(await horizontalOverflow(page), `${what} overflows`).toBe(0);
}

/** A client with a folder; `verified` (the default) as a client who confirmed their address is. */
async function clientWithFolder(name: string, verified = true): Promise<{ user: UserFixture; folderId: string }> {
  const user = await createUser(server.db, { name });
  if (verified) await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  const folder = await server.db
    .insertInto("folders")
    .values({ account_id: user.id, name: "Taxes 2025", color: "#10B981" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { user, folderId: folder.id };
}

describe("documents from the firm", { timeout: 180_000 }, () => {
  it("a client page for an account that is gone says so, with the way back to Users", async ({ login }) => {
    const t = await login(admin, "admin", { viewport: viewports.mobile, reducedMotion: "reduce" });
    t.page.setDefaultTimeout(15_000);
    await screenshotOnFailure(t.page, "firm-shared-missing-client", async () => {
      await t.page.goto("/admin/users/00000000-0000-4000-8000-000000000000");
      await t.page.getByRole("heading", { name: "Client not found" }).waitFor();
      await t.page.getByRole("link", { name: "Back to Users" }).click();
      await t.page.waitForURL("**/admin/dashboard?tab=users");
    });
    t.expectNoConsoleErrors({ allow: [/status of 404/] });
    await t.close();
  });

  for (const viewport of [viewports.mobile, viewports.desktop]) {
    it(`an unverified account is marked as such, and sharing with it asks first (${viewport.width} px)`, async ({ login }) => {
      const { user } = await clientWithFolder(`Sam Squatted ${viewport.width}`, false);
      const a = await login(admin, "admin", { viewport, reducedMotion: "reduce" });
      a.page.setDefaultTimeout(15_000);
      await screenshotOnFailure(a.page, `firm-shared-unverified-${viewport.width}`, async () => {
        await a.page.goto("/admin/dashboard?tab=users");
        const listed = a.page.getByRole("link", { name: user.name, exact: true });
        await listed.waitFor();
        await a.page
          .getByRole("row")
          .filter({ has: listed })
          .or(a.page.getByRole("listitem").filter({ has: listed }))
          .getByText("Unverified")
          .waitFor();
        await listed.click();
        await a.page.waitForURL(`**/admin/users/${user.id}`);
        await a.page.getByRole("heading", { level: 1, name: user.name }).waitFor();
        await a.page.getByText("Unverified", { exact: true }).waitFor();
        await a.page.getByText("This account never confirmed its email address.").waitFor();
        expect(await a.page.getByTestId("upload-input").count()).toBe(0);
        await expectAccessible(a.page, `unverified client page at ${viewport.width}px`);
        await takeScreenshot(a.page, "firm-shared-unverified-client");
        await a.page.getByRole("button", { name: "Share with this account anyway" }).click();
        await a.page.getByRole("alertdialog", { name: "Share with an unverified account?" }).getByRole("button", { name: "Share anyway" }).click();
        await a.page
          .getByTestId("upload-input")
          .setInputFiles([{ name: "Anyway.txt", mimeType: "text/plain", buffer: Buffer.from("shared after asking") }]);
        await toast(a.page, "File uploaded successfully").waitFor();
      });
      a.expectNoConsoleErrors();
      await a.close();
    });

    it(`the admin shares a file into a client's folder; the client sees it from the firm and previews it (${viewport.width} px)`, async ({
      login,
    }) => {
      const { user, folderId } = await clientWithFolder(`Paula Shared ${viewport.width}`);
      const filename = `Tax return 2025 (${viewport.width}).txt`;
      const content = "Form 1040 for 2025, prepared by your firm.";

      const a = await login(admin, "admin", { viewport, reducedMotion: "reduce" });
      a.page.setDefaultTimeout(15_000);
      await screenshotOnFailure(a.page, `firm-shared-admin-${viewport.width}`, async () => {
        await a.page.goto("/admin/dashboard?tab=users");
        await a.page.getByRole("link", { name: user.name, exact: true }).click();
        await a.page.waitForURL(`**/admin/users/${user.id}`);
        await a.page.getByRole("heading", { level: 1, name: user.name }).waitFor();
        await a.page.getByText("No documents in root folder.", { exact: false }).waitFor();
        await a.page.getByRole("button", { name: "Taxes 2025" }).click();
        await a.page.getByText('Uploading to folder "Taxes 2025"').waitFor();
        await a.page.getByTestId("upload-input").setInputFiles([{ name: filename, mimeType: "text/plain", buffer: Buffer.from(content) }]);
        await toast(a.page, "File uploaded successfully").waitFor();
        const row = documentRow(a.page, filename);
        await row.getByText("Shared by the firm").waitFor();
        await expectAccessible(a.page, `admin client page at ${viewport.width}px`);
        await takeScreenshot(a.page, "firm-shared-documents-admin-client");
      });
      a.expectNoConsoleErrors();
      await a.close();

      const stored = await server.db
        .selectFrom("documents")
        .select(["account_id as user_id", "folder_id", "uploaded_by"])
        .where("original_filename", "=", filename)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ user_id: user.id, folder_id: folderId, uploaded_by: admin.id });

      const c = await login(user, "client", { viewport, reducedMotion: "reduce" });
      c.page.setDefaultTimeout(15_000);
      await screenshotOnFailure(c.page, `firm-shared-client-${viewport.width}`, async () => {
        await c.page.goto("/dashboard");
        await c.page.getByRole("button", { name: "Taxes 2025", exact: true }).click();
        const row = documentRow(c.page, filename);
        await row.getByText("From your firm").waitFor();
        await expectAccessible(c.page, `client documents at ${viewport.width}px`);
        await takeScreenshot(c.page, "firm-shared-documents-client");

        await row.getByRole("button", { name: filename, exact: true }).click();
        const viewer = c.page.getByRole("dialog", { name: filename });
        await viewer.getByText(content).waitFor();
        await expectAccessible(c.page, `client viewer at ${viewport.width}px`);
        await takeScreenshot(c.page, "firm-shared-documents-client-preview");
      });
      c.expectNoConsoleErrors();
      await c.close();

      const trail = await server.db
        .selectFrom("activity_events")
        .select(["action", "actor_role"])
        .where("account_id", "=", user.id)
        .where("action", "in", ["document.upload", "document.preview"])
        .orderBy("id")
        .execute();
      // The firm's upload, then the client's preview (the viewer may ask for the file more than once).
      expect(trail[0]).toEqual({ action: "document.upload", actor_role: "admin" });
      expect(trail.slice(1)).toContainEqual({ action: "document.preview", actor_role: "client" });
    });
  }
});
