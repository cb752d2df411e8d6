/*
 * Issue 37 in Chromium: the owner's incident response on the Site tab's firm settings (the access
 * log's download, and "End every session" behind a confirmation, after which a client's session is
 * gone); the access log in the Activity tab for staff with the activity right alone; a client's "Export my data" and the firm's "Export" on the client record download the ZIP.
 * Each view passes axe, without overflow, at 1280 and 390 px (screenshots in test-output/screenshots).
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describe, expect } from "vitest";
import { expectAccessibleAtBothWidths, screenshotOnFailure } from "../helpers/browser.ts";
import { browserTestFile } from "../helpers/browser-test.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: UserFixture;
let clientUser: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    owner = await createStaffMember(server.db, "owner", [], { name: "Dana Whitfield" });
    clientUser = await createUser(server.db, { name: "Greta Lindqvist" });
    const api = await loginClient(server.url, clientUser);
    const form = new FormData();
    form.append("file", new Blob([randomBytes(64)]), "w2.pdf");
    expect((await api.request("POST", "/api/documents/upload", { body: form })).status).toBe(201);
  },
});

describe("safeguards in the browser", () => {
  it("a client exports their data from Settings", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(clientUser, "client");
    await screenshotOnFailure(page, "safeguards-client-export", async () => {
      await page.goto("/settings");
      const button = page.getByRole("button", { name: "Export my data" });
      await button.waitFor();
      await button.scrollIntoViewIfNeeded();
      await expectAccessibleAtBothWidths(page, "safeguards-client-export", ["section:has(#export-heading)"]);
      // Asked first, saying what the file holds (issue 48).
      await button.click();
      const dialog = page.getByRole("alertdialog", { name: "Download your data?" });
      await dialog.getByText(/Social Security numbers and bank account numbers/).waitFor();
      await expectAccessibleAtBothWidths(page, "safeguards-client-export-confirm", ['[role="alertdialog"]']);
      const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Download the ZIP" }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${clientUser.username} export \\d{4}-\\d{2}-\\d{2}\\.zip$`));
    });
    expectNoConsoleErrors();
  });

  it("the firm exports a client's record", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(owner, "admin");
    await screenshotOnFailure(page, "safeguards-firm-export", async () => {
      await page.goto(`/admin/accounts/${clientUser.id}`);
      const button = page.getByRole("button", { name: `Export all of ${clientUser.username}'s data as a ZIP` });
      await button.waitFor();
      await expectAccessibleAtBothWidths(page, "safeguards-firm-export");
      await button.click();
      const dialog = page.getByRole("alertdialog", { name: `Download all of ${clientUser.username}'s data?` });
      await dialog.getByText(/Social Security numbers and bank account and routing numbers in full/).waitFor();
      await expectAccessibleAtBothWidths(page, "safeguards-firm-export-confirm", ['[role="alertdialog"]']);
      const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Download the ZIP" }).click()]);
      expect(download.suggestedFilename()).toMatch(/ export \d{4}-\d{2}-\d{2}\.zip$/);
    });
    expectNoConsoleErrors();
  });

  it("staff with the activity right but not the settings right download the access log from the Activity tab", async ({ login }) => {
    const reader = await createStaffMember(server.db, "staff", ["activity", "all_clients"], { name: "Ola Reader" });
    const { page, expectNoConsoleErrors } = await login(reader, "admin");
    await screenshotOnFailure(page, "safeguards-access-log-activity", async () => {
      await page.goto("/admin/dashboard?tab=activity");
      const card = page.locator("section", { has: page.getByRole("heading", { name: "Access log", level: 2 }) });
      await card.waitFor();
      // Firm settings (the incident section) are not this person's.
      expect(await page.getByRole("tab", { name: "Site" }).count()).toBe(0);
      await expectAccessibleAtBothWidths(page, "safeguards-access-log-activity", ["main"]);
      const [log] = await Promise.all([page.waitForEvent("download"), card.getByRole("link", { name: "Download access log" }).click()]);
      expect(log.suggestedFilename()).toBe("access-log.csv");
      const csv = await readFile(await log.path(), "utf8");
      expect(csv.split("\r\n")[0]).toMatch(/^occurred_at,action,person,/);
      // This person's own sign-in is in the window.
      expect(csv.split("\r\n").some((line) => line.includes("auth.sign_in,") && line.includes(reader.id))).toBe(true);
    });
    expectNoConsoleErrors();
  });

  it("the owner downloads the access log and ends every session after confirming", async ({ login }) => {
    const signedIn = await loginClient(server.url, clientUser);
    const { page, expectNoConsoleErrors } = await login(owner, "admin");
    await screenshotOnFailure(page, "safeguards-incident", async () => {
      await page.goto("/admin/dashboard?tab=site&area=settings");
      const section = page.locator("section:has(#incident-heading)");
      await section.getByRole("heading", { name: "Responding to an incident" }).waitFor();
      await section.scrollIntoViewIfNeeded();
      await expectAccessibleAtBothWidths(page, "safeguards-incident", ["section:has(#incident-heading)"]);
      const [log] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "Download access log" }).click()]);
      expect(log.suggestedFilename()).toBe("access-log.csv");

      // Cancel keeps everyone signed in.
      await section.getByRole("button", { name: "End every session" }).click();
      let dialog = page.getByRole("alertdialog");
      await dialog.getByText("Only this session of yours stays open").waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await signedIn.get("/api/auth/me")).status).toBe(200);

      await section.getByRole("button", { name: "End every session" }).click();
      dialog = page.getByRole("alertdialog");
      await dialog.getByRole("button", { name: "Sign everyone out" }).click();
      await page
        .locator("[data-sonner-toast]", { hasText: /sessions? ended/ })
        .first()
        .waitFor();
      expect((await signedIn.get("/api/auth/me")).status).toBe(401);
      // The owner's own page goes on.
      await page.reload();
      await section.getByRole("heading", { name: "Responding to an incident" }).waitFor();
    });
    expectNoConsoleErrors();
  });
});
