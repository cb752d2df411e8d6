/*
 * The specification's word after a deletion (issue 48, item 9) in Chromium against the real
 * server, at 390 and 1280 px: a client deletes a document and reads "Document deleted successfully"
 * with where it went (the Trash, for 30 days) and Undo beside it, which puts it back; the firm
 * deletes a document of an account under a legal hold and is told the hold keeps it. Axe on every
 * view, the toast included.
 */
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { checkA11y, formatViolations, horizontalOverflow, screenshotOnFailure, takeScreenshot, viewports } from "../helpers/browser.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";
import { DEFAULT_FIRM_NAME } from "../../server/domains/site/defaults.ts";

let server: TestServer;
let owner: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    owner = await createStaffMember(server.db, "owner", [], { name: "Olivia Owner" });
  },
});

const WIDTHS = [
  ["390", viewports.mobile],
  ["1280", viewports.desktop],
] as const;

async function upload(user: UserFixture, name: string): Promise<void> {
  const api = await loginClient(server.url, user);
  const form = new FormData();
  form.append("file", new Blob([`${name} contents`], { type: "text/plain" }), name);
  const res = await api.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first();

/** No serious axe violation anywhere on the page, the toasts included; no sideways scrolling; a screenshot. */
async function expectAccessibleHere(page: Page, name: string) {
  const violations = await checkA11y(page);
  expect(violations, `${name}:\n${formatViolations(violations)}`).toEqual([]);
  expect(await horizontalOverflow(page), name).toBe(0);
  await takeScreenshot(page, name);
}

describe("the specification's word after a deletion (issue 48, item 9)", () => {
  for (const [width, viewport] of WIDTHS) {
    it(`a client deletes a document: Document deleted successfully, the Trash and Undo beside it (${width} px)`, async ({ login }) => {
      const client = await createUser(server.db, { name: "Maria Garcia" });
      await upload(client, "w2-2025.txt");
      const t = await login(client, "client", { viewport, reducedMotion: "reduce" });
      const { page } = t;
      page.setDefaultTimeout(15_000);
      await page.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
      await screenshotOnFailure(page, `document-deleted-client-${width}`, async () => {
        await page.goto("/dashboard");
        const documents = page.getByRole("list", { name: "Documents" });
        const row = documents.getByRole("listitem").filter({ hasText: "w2-2025.txt" });
        await row.waitFor();
        // The row's Delete button, or on a phone its menu's Delete.
        const inRow = row.getByRole("button", { name: "Delete w2-2025.txt" });
        if (await inRow.isVisible()) await inRow.click();
        else {
          await row.getByRole("button", { name: "Actions for w2-2025.txt" }).click();
          await page.getByRole("menuitem", { name: "Delete" }).click();
        }
        const confirm = page.getByRole("alertdialog", { name: "Delete document" });
        await confirm.getByText("Are you sure you want to delete this document?").waitFor();
        await confirm.getByRole("button", { name: "Delete" }).click();

        const said = toast(page, "Document deleted successfully");
        await said.getByText("It is in your Trash for 30 days", { exact: false }).waitFor();
        await said.getByRole("button", { name: "Undo" }).waitFor();
        expect(await toast(page, "Moved to trash").count()).toBe(0);
        await row.waitFor({ state: "detached" });
        // The specification's empty message, and in plain words what its "root folder" is.
        await page.getByText("No documents in root folder.").waitFor();
        await page.getByText("That is the top level of your documents, outside any folder.", { exact: false }).waitFor();
        await page.getByText("Uploading to the top level").waitFor();
        await expectAccessibleHere(page, "document-deleted-client");

        await said.getByRole("button", { name: "Undo" }).click();
        await toast(page, "Document restored").waitFor();
        await documents.getByRole("listitem").filter({ hasText: "w2-2025.txt" }).waitFor();
      });
      t.expectNoConsoleErrors();
    }, 60_000);

    it(`the firm deletes a document of an account under a legal hold and is told the hold keeps it (${width} px)`, async ({ login }) => {
      const client = await createUser(server.db, { name: "Hugo Marchetti" });
      await upload(client, "ledger-2024.txt");
      const firmApi = await loginClient(server.url, owner, "admin");
      expect((await firmApi.post(`/api/admin/accounts/${client.id}/legal-hold`, { reason: "IRS examination" })).status).toBe(200);
      const t = await login(owner, "admin", { viewport, reducedMotion: "reduce" });
      const { page } = t;
      page.setDefaultTimeout(15_000);
      await screenshotOnFailure(page, `document-deleted-held-${width}`, async () => {
        await page.goto(`/admin/accounts/${client.id}?section=documents`);
        await page.getByRole("button", { name: "Delete ledger-2024.txt" }).click();
        await page.getByRole("alertdialog", { name: "Delete this document?" }).getByRole("button", { name: "Delete" }).click();
        const said = toast(page, "Document deleted successfully");
        await said.getByText("The account is under a legal hold", { exact: false }).waitFor();
        await said.getByText("never deleted for good, until the hold is lifted", { exact: false }).waitFor();
        await said.getByRole("button", { name: "Undo" }).waitFor();
        await expectAccessibleHere(page, "document-deleted-held");

        await said.getByRole("button", { name: "Undo" }).click();
        await toast(page, 'Restored "ledger-2024.txt"').waitFor();
        await page.getByRole("button", { name: "Delete ledger-2024.txt" }).waitFor();
      });
      t.expectNoConsoleErrors();
    }, 60_000);
  }

  it("shows the firm's whole name in the portal's and the admin's top bars on phones of 360 and 390 px (issue 48)", async ({ login }) => {
    const client = await createUser(server.db, { name: "Maria Garcia-Lindqvist" });
    const pages = [
      { t: await login(client, "client", { viewport: viewports.mobile }), path: "/dashboard" },
      { t: await login(owner, "admin", { viewport: viewports.mobile }), path: "/admin/dashboard" },
      { t: await login(owner, "admin", { viewport: viewports.mobile }), path: `/admin/accounts/${client.id}` },
    ];
    for (const { t, path } of pages) {
      await t.page.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
      await t.page.goto(path);
      const name = t.page.getByRole("banner").getByText(DEFAULT_FIRM_NAME, { exact: true });
      for (const width of [360, 390]) {
        await t.page.setViewportSize({ width, height: 800 });
        await name.waitFor();
        // Not cut: the whole name fits the box it is drawn in (two lines at most).
        const cut = await name.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
        expect(cut, `${path} at ${width} px`).toBe(false);
        if (path === "/dashboard") {
          // The upload strip says where files go in words that fit too.
          const target = t.page.getByText("Uploading to the top level", { exact: true });
          expect(await target.evaluate((el) => el.scrollWidth > el.clientWidth + 1), `upload target at ${width} px`).toBe(false);
        }
        expect(await horizontalOverflow(t.page), `${path} at ${width} px`).toBe(0);
        await takeScreenshot(t.page, `firm-name-${path.split("/")[1]}-${path.split("/")[2] ?? ""}`);
      }
      t.expectNoConsoleErrors();
    }
  }, 60_000);
});
