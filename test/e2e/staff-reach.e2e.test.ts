/*
 * "This account was deleted" to a staff member who opens a client outside their assignment (issue
 * 48, item 5) in Chromium against the real server, at 390 and 1280 px: a preparer on assigned
 * clients only opens a link to a client who is not assigned to her, on the account page, its access
 * report and the client page, and is told so and who can assign it (the owner and the admin); a link
 * to a client that does not exist says that instead. Once the owner assigns the client, the same
 * link opens. Axe on every view.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { checkA11y, formatViolations, horizontalOverflow, screenshotOnFailure, takeScreenshot, viewports } from "../helpers/browser.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: UserFixture;
let preparer: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    owner = await createStaffMember(server.db, "owner", [], { name: "Olivia Owner" });
    await createStaffMember(server.db, "admin", [], { name: "Adam Admin" });
    // Manages clients, but only those assigned to her: she cannot assign herself.
    preparer = await createStaffMember(server.db, "staff", ["manage_clients", "documents", "activity"], { name: "Pat Preparer" });
  },
});

const WIDTHS = [
  ["390", viewports.mobile],
  ["1280", viewports.desktop],
] as const;

async function expectAccessibleHere(page: Page, name: string) {
  const violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"] });
  expect(violations, `${name}:\n${formatViolations(violations)}`).toEqual([]);
  expect(await horizontalOverflow(page), name).toBe(0);
  await takeScreenshot(page, name);
}

const NOT_ASSIGNED = "This client is not assigned to you";
const WHO_ASSIGNS = "ask Olivia Owner (the owner) or Adam Admin (an admin) to assign it to you";

describe("a client outside a staff member's assignment (issue 48, item 5)", () => {
  for (const [width, viewport] of WIDTHS) {
    it(`says the client is not assigned to her and who can change that, then opens once assigned (${width} px)`, async ({ login }) => {
      const client = await createUser(server.db, { name: "Greta Lindqvist" });
      const t = await login(preparer, "admin", { viewport, reducedMotion: "reduce" });
      const { page } = t;
      page.setDefaultTimeout(15_000);
      await screenshotOnFailure(page, `staff-reach-${width}`, async () => {
        await page.goto(`/admin/accounts/${client.id}`);
        await page.getByRole("heading", { level: 1, name: NOT_ASSIGNED }).waitFor();
        await page.getByText(WHO_ASSIGNS, { exact: false }).waitFor();
        // Nothing of the client: not its name, nor "deleted".
        expect(await page.getByText("Greta Lindqvist").count()).toBe(0);
        expect(await page.getByText(/deleted/).count()).toBe(0);
        await expectAccessibleHere(page, "staff-reach-account");

        await page.goto(`/admin/accounts/${client.id}/access`);
        await page.getByRole("heading", { level: 2, name: NOT_ASSIGNED }).waitFor();
        await page.getByText(WHO_ASSIGNS, { exact: false }).waitFor();
        await expectAccessibleHere(page, "staff-reach-access-report");

        await page.goto(`/admin/users/${client.id}`);
        await page.getByRole("heading", { level: 1, name: NOT_ASSIGNED }).waitFor();
        await expectAccessibleHere(page, "staff-reach-client-page");

        // A client that does not exist is said to be missing, not unassigned.
        await page.goto(`/admin/accounts/${randomUUID()}`);
        await page.getByRole("heading", { level: 1, name: "Client account not found" }).waitFor();
        await page.getByText("It may have been deleted, or the link is incomplete.").waitFor();
        expect(await page.getByText(NOT_ASSIGNED).count()).toBe(0);
        await expectAccessibleHere(page, "staff-reach-missing");
        await page.getByRole("link", { name: "Back to Clients" }).click();
        await page.waitForURL((url) => url.pathname === "/admin/dashboard" && url.searchParams.get("tab") === "users");
      });

      // The owner opens one of the client's documents, then assigns the client to her; the same link now opens the record.
      const form = new FormData();
      form.append("file", new Blob(["W-2"], { type: "text/plain" }), "w2-2025.txt");
      const uploaded = await (await loginClient(server.url, client)).request("POST", "/api/documents/upload", { body: form });
      expect(uploaded.status, uploaded.text).toBe(201);
      const ownerApi = await loginClient(server.url, owner, "admin");
      expect((await ownerApi.get(`/api/admin/documents/${uploaded.body.id}/download`)).status).toBe(200);
      const assigned = await ownerApi.request("PUT", `/api/admin/accounts/${client.id}/assignees`, { json: { user_ids: [preparer.id] } });
      expect(assigned.status, assigned.text).toBe(200);
      await screenshotOnFailure(page, `staff-reach-assigned-${width}`, async () => {
        await page.goto(`/admin/accounts/${client.id}`);
        await page.getByRole("heading", { level: 1, name: client.username! }).waitFor();
        expect(await page.getByText(NOT_ASSIGNED).count()).toBe(0);
        // Its access report names who opened the document by name, not by login name (issue 48).
        await page.goto(`/admin/accounts/${client.id}/access`);
        const openings = page.getByRole("list", { name: "Document openings" });
        await openings.getByText("Olivia Owner downloaded w2-2025.txt").waitFor();
        expect(await openings.getByText(owner.username!).count()).toBe(0);
        await expectAccessibleHere(page, "staff-reach-access-report-named");
      });
      t.expectNoConsoleErrors({ allow: [/status of 404/] });
    }, 60_000);
  }
});
