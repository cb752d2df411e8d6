/*
 * Issue 31, part B, in Chromium: the contact section's hours follow the firm's availability after the
 * admin changes it; the footer links to the privacy notice and the terms, each a page of its own;
 * the Overview's first-day checklist ticks itself when the admin names the firm; the Tax Forms tab
 * names the year the admin set. Every page passes axe at 1280 and 390 px, with screenshots.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTest } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, newPage, releaseBrowser, screenshotOnFailure, sharedBrowser } from "../helpers/browser.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;
let adminUser: UserFixture;
let adminApi: ApiClient;
const it = browserTest(() => ({ browser, baseUrl: server.url }));

beforeAll(async () => {
  server = await startTestServer();
  browser = await sharedBrowser();
  adminUser = await createUser(server.db, { is_admin: true, name: "Dana Whitfield" });
  adminApi = await loginClient(server.url, adminUser, "admin");
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

/** A visitor's page that has seen the welcome video already (it would cover the page). */
async function visitor() {
  const t = await newPage(browser, { baseURL: server.url });
  await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
  // A step that cannot happen fails (with its screenshot) before the test's own time runs out.
  t.page.setDefaultTimeout(10_000);
  return t;
}

const hoursShown = (t: Awaited<ReturnType<typeof visitor>>) =>
  t.page.locator("#contact li", { hasText: "Hours" }).locator("span.font-medium").innerText();

describe("the public site", () => {
  it("shows the hours of the firm's availability, and follows it when the admin changes it", async () => {
    const t = await visitor();
    try {
      await screenshotOnFailure(t.page, "site-setup-hours", async () => {
        await t.page.goto("/");
        expect(await hoursShown(t)).toBe("Monday to Friday, 9 AM-5 PM");
        const weekly = [...[1, 2, 3, 4].map((weekday) => ({ weekday, start: "08:00", end: "18:00" })), { weekday: 6, start: "09:00", end: "13:00" }];
        expect((await adminApi.put("/api/admin/availability", { weekly })).status).toBe(200);
        await t.page.reload();
        expect(await hoursShown(t)).toBe("Monday to Thursday, 8 AM-6 PM; Saturday, 9 AM-1 PM");
        expect(await t.page.locator("body").innerText()).not.toContain("9 AM-7 PM");
        await t.page.locator("#contact").scrollIntoViewIfNeeded();
        await expectAccessibleAtBothWidths(t.page, "site-setup-landing-hours", ["#contact"]);
      });
      t.expectNoConsoleErrors();
    } finally {
      await t.close();
    }
  });

  it("links the privacy notice and the terms from the footer, each a page with its title", async () => {
    const t = await visitor();
    try {
      await screenshotOnFailure(t.page, "site-setup-legal", async () => {
        await t.page.goto("/");
        const legal = t.page.getByRole("navigation", { name: "Legal" });
        await legal.getByRole("link", { name: "Privacy Notice" }).click();
        await t.page.waitForURL("**/privacy");
        await t.page.getByRole("heading", { level: 1, name: "Privacy Notice" }).waitFor();
        await t.page.getByRole("heading", { level: 2, name: "Who we share it with" }).waitFor();
        expect(await t.page.title()).toContain("Privacy Notice");
        expect(await t.page.locator('meta[name="description"]').getAttribute("content")).toContain("how it is used");
        await expectAccessibleAtBothWidths(t.page, "site-setup-privacy");

        await t.page.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: "Terms of Use" }).click();
        await t.page.waitForURL("**/terms");
        await t.page.getByRole("heading", { level: 1, name: "Terms of Use" }).waitFor();
        expect(await t.page.title()).toContain("Terms of Use");
        await expectAccessibleAtBothWidths(t.page, "site-setup-terms");

        // Opened directly, the page paints from the data served with it.
        await t.page.goto("/terms");
        await t.page.getByRole("heading", { level: 2, name: "Your portal account" }).waitFor();
      });
      t.expectNoConsoleErrors();
    } finally {
      await t.close();
    }
  });
});

describe("the firm's first setup", () => {
  it("the Overview's checklist ticks the firm name once the admin has typed it on the Site tab", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(adminUser, "admin");
    await screenshotOnFailure(page, "site-setup-checklist", async () => {
      await page.goto("/admin/dashboard");
      const checklist = page.locator("section", { has: page.getByRole("heading", { name: "First-day checklist" }) });
      await checklist.waitFor();
      // The availability changed in the first test ticked the hours.
      await checklist.getByText("1 of 8 done.", { exact: false }).waitFor();
      expect(await checklist.locator('[data-step="firm_name"]').getAttribute("data-done")).toBe("false");
      expect(await checklist.locator('[data-step="hours"]').getAttribute("data-done")).toBe("true");
      await expectAccessibleAtBothWidths(page, "site-setup-checklist-before", ["section:has(#setup-checklist-heading)"]);

      await checklist.getByRole("link", { name: /^Firm name/ }).click();
      await page.waitForURL("**/admin/dashboard?tab=site");
      const name = page.getByLabel("Name", { exact: true });
      await name.fill("Lakeside Tax & Books");
      await page.getByText("Updated company.name").waitFor();

      await page.getByRole("tab", { name: "Overview" }).click();
      await checklist.locator('[data-step="firm_name"][data-done="true"]').waitFor();
      await checklist.getByText("2 of 8 done.", { exact: false }).waitFor();
      await expectAccessibleAtBothWidths(page, "site-setup-checklist-ticked", ["section:has(#setup-checklist-heading)"]);

      await checklist.getByRole("button", { name: "Hide checklist" }).click();
      await page.getByRole("button", { name: "Show the first-day checklist" }).waitFor();
      expect(await page.getByRole("heading", { name: "First-day checklist" }).count()).toBe(0);
      await page.getByRole("button", { name: "Show the first-day checklist" }).click();
      await checklist.waitFor();
    });
    expectNoConsoleErrors();
  });

  it("the admin sets the tax year on the Site tab and the client's Tax Forms tab names it", async ({ login }) => {
    const admin = await login(adminUser, "admin");
    await screenshotOnFailure(admin.page, "site-setup-tax-year", async () => {
      await admin.page.goto("/admin/dashboard?tab=site");
      const year = admin.page.getByRole("textbox", { name: "Tax year" });
      await year.fill("2019");
      await admin.page.getByRole("button", { name: "Save tax year" }).click();
      await admin.page.getByRole("alert").getByText("tax_year must be a year from 2020 to", { exact: false }).waitFor();
      await year.fill("2025");
      await admin.page.getByRole("button", { name: "Save tax year" }).click();
      await admin.page.locator("[data-sonner-toast]", { hasText: "The Tax Forms tab now shows 2025." }).first().waitFor();
      await expectAccessibleAtBothWidths(admin.page, "site-setup-tax-year-setting", [
        "section:has(#tax-year-heading)",
        "section:has(#legal-pages-heading)",
      ]);
    });
    // The refused year's 400 (tRPC's status for it) is the browser's console error for that request.
    admin.expectNoConsoleErrors({ allow: [/status of 400 .*admin\.firm\.setTaxYear/] });

    const client = await login(await createUser(server.db, { name: "Greta Lindqvist" }), "client");
    await screenshotOnFailure(client.page, "site-setup-tax-forms", async () => {
      await client.page.goto("/dashboard");
      await client.page.getByRole("tab", { name: "Tax Forms" }).click();
      await client.page.getByRole("heading", { name: "2025 Tax Forms" }).waitFor();
      await expectAccessibleAtBothWidths(client.page, "site-setup-tax-forms");
    });
    client.expectNoConsoleErrors();
  });
});
