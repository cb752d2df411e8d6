/*
 * The firm's services (issue 48, item 7), in Chromium against the real server: the Site tab lists
 * the specification's six, marked Default; the admin adds "Estate Planning", offers Payroll in the
 * consultation form, moves Tax Preparation first and removes Notary Services, each change saved
 * at once ("Updated services.list"). The public site, at 390 and 1280 px, shows the cards, the
 * footer's list and the form's choices in the firm's order; a visitor asks about estate planning
 * and the firm's Consultations tab names it. Reset to default brings back the six. Every view
 * passes axe, has no heading-order skip and does not overflow at 390 and 1280 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleWithHeadings, newPage, releaseBrowser, sharedBrowser, viewports } from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let firmUser: UserFixture;
/** The visitors' browser (the signed-in pages are the file's, through `login`). */
let browser: Browser;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  },
});

beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
});

const SIX = ["Bookkeeping", "Tax Preparation & Planning", "Notary Services", "Administrative Services", "Payroll", "Business Consulting"];
const OWN = ["Tax Preparation & Planning", "Bookkeeping", "Administrative Services", "Payroll", "Business Consulting", "Estate Planning"];

const status = (page: Page) => page.locator("#site-services-list-status");

async function servicesOnTheSite(page: Page) {
  const cards = await page.locator("#services").getByRole("heading", { level: 3 }).allInnerTexts();
  const footer = await page.getByRole("contentinfo").getByRole("navigation", { name: "Services" }).getByRole("link").allInnerTexts();
  await page.getByRole("link", { name: "Schedule Consultation" }).click();
  const form = page.locator("form", { has: page.getByRole("button", { name: "Schedule Consultation", exact: true }) });
  // The form loads as the visitor heads for it.
  await form.getByLabel("Service").waitFor();
  const choices = (await form.getByLabel("Service").locator("option").allTextContents()).slice(1);
  return { cards, footer, choices };
}

describe("the firm's services", { timeout: 120_000 }, () => {
  it("the admin adds, edits, reorders and removes services in the Site tab, each saved at once", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(firmUser, "admin", { viewport: viewports.desktop });
    await page.goto("/admin/dashboard?tab=site");
    const section = page.getByRole("region", { name: "Services" });
    const list = section.getByRole("list", { name: "Services" });
    await list.waitFor();
    expect(await list.locator(":scope > li").count()).toBe(6);
    await section.locator("#site-services-list-default").waitFor();
    await list.getByText("In the consultation form as “Bookkeeping Services”").waitFor();
    await list.getByText("Not in the consultation form").waitFor();

    await section.getByRole("button", { name: "Add a service" }).click();
    const form = section.getByRole("form", { name: "New service" });
    await form.getByRole("button", { name: "Done" }).click();
    await form.getByText("Each service needs a title").waitFor();
    await form.getByLabel("Title").fill("Estate Planning");
    await form.getByLabel("Description").fill("Wills, trusts and the taxes that come with them.");
    await form.getByLabel("Icon").selectOption("briefcase");
    await expectAccessibleWithHeadings(page, "services-editor-new");
    await form.getByRole("button", { name: "Done" }).click();
    await status(page).getByText("Updated services.list", { exact: true }).waitFor();
    await list.getByText("In the consultation form as “Estate Planning”").waitFor();

    await section.getByRole("button", { name: "Edit Payroll" }).click();
    const payroll = section.getByRole("form", { name: "Edit Payroll" });
    await payroll.getByLabel("Offer it in the consultation form").check();
    await payroll.getByLabel("Its name in the form").fill("Payroll Services");
    await payroll.getByRole("button", { name: "Done" }).click();
    await list.getByText("In the consultation form as “Payroll Services”").waitFor();

    await section.getByRole("button", { name: "Move Tax Preparation & Planning up" }).click();
    // The focus stays with the moved service: at the top now, on its other button.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Move Tax Preparation & Planning down");
    await section.getByRole("button", { name: "Remove Notary Services" }).click();
    await expect.poll(async () => (await list.locator(":scope > li p.font-medium").allInnerTexts()).join("|")).toBe(OWN.join("|"));
    await status(page).getByText("Updated services.list", { exact: true }).waitFor();
    await section.getByRole("button", { name: "Reset to default: Services" }).waitFor();
    await expectAccessibleWithHeadings(page, "services-editor-own");

    const stored = await server.db
      .selectFrom("site_content")
      .select("value")
      .where("section", "=", "services")
      .where("key", "=", "list")
      .executeTakeFirstOrThrow();
    expect((JSON.parse(stored.value) as Array<{ title: string }>).map((s) => s.title)).toEqual(OWN);
    expectNoConsoleErrors();
  });

  for (const viewport of [viewports.mobile, viewports.desktop]) {
    it(`the public site shows the firm's services, footer and form choices at ${viewport.width}px`, async () => {
      const t = await newPage(browser, { baseURL: server.url, viewport, reducedMotion: "reduce" });
      await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
      await t.page.goto("/");
      await t.page.locator("#services").getByRole("heading", { level: 3, name: "Estate Planning" }).waitFor();
      expect(await t.page.getByRole("link", { name: /Visit the notary site/ }).count()).toBe(0);
      const shown = await servicesOnTheSite(t.page);
      expect(shown.cards).toEqual(OWN);
      expect(shown.footer).toEqual(OWN);
      expect(shown.choices).toEqual([
        "Tax Preparation & Planning",
        "Bookkeeping Services",
        "Administrative Services",
        "Payroll Services",
        "Business Consulting",
        "Estate Planning",
        "Other",
      ]);
      await t.page.locator("#services").scrollIntoViewIfNeeded();
      await expectAccessibleWithHeadings(t.page, "services-public");
      t.expectNoConsoleErrors();
      await t.close();
    });
  }

  it("a visitor asks about estate planning; the firm reads it named so; Reset to default brings back the six", async ({ login }) => {
    const t = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile });
    await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
    await t.page.goto("/");
    await t.page.getByRole("link", { name: "Schedule Consultation" }).click();
    const form = t.page.locator("form", { has: t.page.getByRole("button", { name: "Schedule Consultation", exact: true }) });
    await form.getByLabel("Full Name").fill("Nora Quinn");
    await form.getByLabel("Email").fill("nora@example.com");
    await form.getByLabel("Phone").fill("(555) 123-4567");
    await form.getByLabel("Service").selectOption({ label: "Estate Planning" });
    await form.getByRole("button", { name: "Schedule Consultation", exact: true }).click();
    await t.page.getByRole("status").filter({ hasText: "Thank you!" }).waitFor();
    const row = await server.db.selectFrom("consultation_requests").select("service").executeTakeFirstOrThrow();
    expect(row.service).toBe("estate-planning");
    t.expectNoConsoleErrors();
    await t.close();

    const { page, expectNoConsoleErrors } = await login(firmUser, "admin", { viewport: viewports.desktop });
    await page.goto("/admin/dashboard?tab=consultations");
    await page.getByText("Nora Quinn").first().waitFor();
    await page.getByText("Estate Planning", { exact: true }).first().waitFor();
    await expectAccessibleWithHeadings(page, "services-consultations");

    await page.goto("/admin/dashboard?tab=site");
    const section = page.getByRole("region", { name: "Services" });
    await section.getByRole("button", { name: "Reset to default: Services" }).click();
    await status(page).getByText("Updated services.list: default restored").waitFor();
    await section.locator("#site-services-list-default").waitFor();
    await expect
      .poll(async () => (await section.getByRole("list", { name: "Services" }).locator(":scope > li p.font-medium").allInnerTexts()).join("|"))
      .toBe(SIX.join("|"));
    expectNoConsoleErrors();
  });
});
