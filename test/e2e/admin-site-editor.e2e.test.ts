/*
 * The admin's Site tab in Chromium against the real server and database: the editor shows what
 * the public site shows (stored or default, marked), saves quietly with an inline "Updated hero.title" (the specification's words),
 * resets a field to its default, never lets an empty value reach the page, shows the server's
 * refusals by the field, and the testimonial editor starts from the carousel's list.
 * Needs the built client (global-setup-client.ts builds it).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TESTIMONIALS, defaultSiteContent } from "../../server/domains/site/defaults.ts";
import { SITE_CONTENT_KEYS } from "../../server/domains/site/schemas.ts";
import {
  checkA11y,
  expectAccessibleAtBothWidths,
  formatViolations,
  horizontalOverflow,
  newPage,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  type Viewport,
} from "../helpers/browser.ts";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const DEFAULTS = defaultSiteContent({ firmEmail: undefined });
const EDITABLE_KEYS = Object.entries(SITE_CONTENT_KEYS)
  .filter(([section]) => section !== "testimonials")
  .flatMap(([, keys]) => keys).length;

let server: TestServer;
let browser: Browser;
let adminUser: UserFixture;
let admin: TestPage;
const updates: string[] = [];

async function signedInAdmin(viewport?: Viewport): Promise<TestPage> {
  return signedInPage(browser, server.url, adminUser, "admin", { viewport });
}

async function openSiteTab(page: Page) {
  await page.goto("/admin/dashboard?tab=site");
  await page.locator("#site-hero-title").waitFor();
  await page.getByRole("list", { name: "Testimonials" }).waitFor();
}

async function stored(section: string, key: string): Promise<string | undefined> {
  const row = await server.db.selectFrom("site_content").select("value").where("section", "=", section).where("key", "=", key).executeTakeFirst();
  return row?.value;
}

const status = (page: Page, id: string) => page.locator(`#site-${id}-status`);
const defaultBadge = (page: Page, id: string) => page.locator(`#site-${id}-default`);

async function expectCleanPage(page: Page) {
  const violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"] });
  expect(violations, formatViolations(violations)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
}

beforeAll(async () => {
  server = await startTestServer();
  adminUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  browser = await sharedBrowser();
  admin = await signedInAdmin();
  admin.page.on("request", (request) => {
    // Not admin.siteContent.updateTestimonials, which shares the prefix.
    if (/admin\.siteContent\.update\b/.test(request.url())) updates.push(request.postData() ?? "");
  });
}, 300_000);

afterAll(async () => {
  await admin?.close();
  await releaseBrowser(browser);
  await server?.close();
});

describe("site editor", () => {
  it("shows every key's live value with nothing stored, each marked as the default", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-site-live", async () => {
      await openSiteTab(page);
      expect(await page.locator("#site-hero-title").inputValue()).toBe(DEFAULTS.hero.title);
      expect(await page.locator("#site-contact-phone").inputValue()).toBe(DEFAULTS.contact.phone);
      expect(await page.locator("#site-about-description").inputValue()).toBe(DEFAULTS.about.description);
      await expect(page.locator('[id^="site-"][id$="-default"]').count()).resolves.toBe(EDITABLE_KEYS);
      // The default is announced with the field.
      expect(await page.locator("#site-hero-title").getAttribute("aria-describedby")).toContain("site-hero-title-default");
      await expect(page.getByRole("button", { name: /^Reset to default/ }).count()).resolves.toBe(0);
      // The spec's Initialize is offered while nothing is stored, and is not needed to edit.
      await page.getByRole("button", { name: "Initialize Site Content" }).waitFor();
      await expectCleanPage(page);
    });
  });

  it('saves one update per pause, says "Updated hero.title" by the field (the specification\'s words) and shows no toast', async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-site-save", async () => {
      const title = page.locator("#site-hero-title");
      await title.fill("");
      await title.pressSequentially("Numbers you can trust", { delay: 40 });
      await status(page, "hero-title").getByText("Updated hero.title", { exact: true }).waitFor();
      expect(updates).toHaveLength(1);
      await expectAccessibleAtBothWidths(page, "admin-site-updated");
      expect(await stored("hero", "title")).toBe("Numbers you can trust");
      await defaultBadge(page, "hero-title").waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Reset to default: Hero, Title" }).waitFor();
      await expect(page.locator("[data-sonner-toast]").count()).resolves.toBe(0);
      // Other fields still show their defaults, and Initialize stays offered for them.
      await defaultBadge(page, "hero-subtitle").waitFor();

      const visitor = await newPage(browser, { baseURL: server.url });
      await visitor.page.goto("/");
      await visitor.page.getByRole("heading", { level: 1, name: "Numbers you can trust" }).waitFor();
      await visitor.close();
    });
  });

  it("resets a field to its default", async () => {
    const { page } = admin;
    await page.getByRole("button", { name: "Reset to default: Hero, Title" }).click();
    await status(page, "hero-title").getByText("Updated hero.title: default restored").waitFor();
    await defaultBadge(page, "hero-title").waitFor();
    expect(await page.locator("#site-hero-title").inputValue()).toBe(DEFAULTS.hero.title);
    expect(await stored("hero", "title")).toBeUndefined();
  });

  it("never lets an emptied field reach the page: the default shows instead", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-site-empty", async () => {
      const subtitle = page.locator("#site-hero-subtitle");
      await subtitle.fill("Books closed every month");
      await status(page, "hero-subtitle").getByText("Updated hero.subtitle", { exact: true }).waitFor();
      expect(await stored("hero", "subtitle")).toBe("Books closed every month");

      await subtitle.fill("");
      await status(page, "hero-subtitle").getByText("Updated hero.subtitle: empty, the site shows the default").waitFor();
      expect(await stored("hero", "subtitle")).toBeUndefined();
      await page.locator("#site-hero-description").focus();
      await expect.poll(() => subtitle.inputValue()).toBe(DEFAULTS.hero.subtitle);
      await defaultBadge(page, "hero-subtitle").waitFor();

      const visitor = await newPage(browser, { baseURL: server.url });
      await visitor.page.goto("/");
      await visitor.page.getByText(DEFAULTS.hero.subtitle!).waitFor();
      await visitor.close();
    });
  });

  it("shows the server's refusal of an invalid email, phone or image path by the field, and saves once fixed", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "admin-site-invalid", async () => {
      const email = page.locator("#site-contact-email");
      await email.fill("front desk");
      await page.locator("#site-contact-email-error").getByText("Contact email must be an email address, like office@example.com").waitFor();
      expect(await email.getAttribute("aria-invalid")).toBe("true");
      expect(await email.getAttribute("aria-describedby")).toContain("site-contact-email-error");
      await status(page, "contact-email").getByText("Failed to update contact.email", { exact: true }).waitFor();
      expect(await stored("contact", "email")).toBeUndefined();
      // The specification's failure words by the field, at both widths.
      await expectAccessibleAtBothWidths(page, "admin-site-invalid");

      await email.fill("frontdesk@firm.example.com");
      await status(page, "contact-email").getByText("Updated contact.email", { exact: true }).waitFor();
      expect(await email.getAttribute("aria-invalid")).toBeNull();
      await expect(page.locator("#site-contact-email-error").count()).resolves.toBe(0);
      expect(await stored("contact", "email")).toBe("frontdesk@firm.example.com");

      await page.locator("#site-contact-phone").fill("call us");
      await page.getByText("Contact phone must be a phone number, like (555) 010-4200").waitFor();
      await page.locator("#site-hero-image").fill("https://tracker.example/pixel.png");
      await page.getByText("Hero image must be a path on this site, like /images/hero.svg").waitFor();
      expect(await stored("contact", "phone")).toBeUndefined();
      expect(await stored("hero", "image")).toBeUndefined();
      await page.locator("#site-contact-phone").fill("(555) 010-9999");
      await page.locator("#site-hero-image").fill("/images/hero.svg");
      await status(page, "hero-image").getByText("Updated hero.image", { exact: true }).waitFor();
      await status(page, "contact-phone").getByText("Updated contact.phone", { exact: true }).waitFor();
    });
  });
});

describe("testimonial editor", () => {
  it("starts from the twelve testimonials the carousel shows, and Save all stores those", async () => {
    const t = await signedInAdmin();
    await screenshotOnFailure(t.page, "admin-testimonials-start", async () => {
      await openSiteTab(t.page);
      const items = t.page.getByRole("list", { name: "Testimonials" }).locator(":scope > li");
      await expect(items.count()).resolves.toBe(12);
      await t.page.getByText(DEFAULT_TESTIMONIALS[0]!.text).waitFor();
      await expect(t.page.getByText("Sample Client").count()).resolves.toBe(0);
      await t.page.getByText("shows these built-in testimonials").waitFor();

      await t.page.getByRole("button", { name: "Save all" }).click();
      await expect.poll(() => stored("testimonials", "data")).toBeDefined();
      expect(JSON.parse((await stored("testimonials", "data"))!)).toEqual(DEFAULT_TESTIMONIALS);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("refuses to publish sample testimonials a browser still sends, and says why in the editor", async () => {
    const sample = { text: "Tax season used to be stressful.", author: "Sample Client", business: "Freelance professional" };
    const published = JSON.stringify([DEFAULT_TESTIMONIALS[1], sample]);
    await server.db.updateTable("site_content").set({ value: published }).where("section", "=", "testimonials").where("key", "=", "data").execute();
    const t = await signedInAdmin();
    await openSiteTab(t.page);
    await t.page.getByRole("button", { name: "Save all" }).click();
    await t.page
      .getByRole("alert")
      .getByText(
        'Failed to update testimonials: Sample testimonials are not published: replace "Sample Client" with the client\'s name, or delete them',
      )
      .waitFor();
    expect(await stored("testimonials", "data")).toBe(published);
    await t.page.getByRole("button", { name: "Delete testimonial by Sample Client" }).click();
    await expect.poll(async () => JSON.parse((await stored("testimonials", "data"))!)).toEqual([DEFAULT_TESTIMONIALS[1]]);
    t.expectNoConsoleErrors({ allow: [/status of 400 .*\/trpc\/admin\.siteContent\.updateTestimonials/] });
    await t.close();
  });
});

describe("site tab layout", () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 768, height: 1024 },
    { width: 1280, height: 800 },
  ]) {
    it(`fits ${viewport.width} px and stays accessible`, async () => {
      const t = await signedInAdmin(viewport);
      await openSiteTab(t.page);
      await expectCleanPage(t.page);
      await takeScreenshot(t.page, "admin-site-editor");
      t.expectNoConsoleErrors();
      await t.close();
    });
  }
});
