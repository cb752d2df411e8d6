/*
 * Samples that stay samples (issue 48, item 6), in Chromium against the real server. A new site's
 * carousel shows the 12 built-in quotes marked as samples. The admin adds one real testimonial and
 * presses Save all: the twelve keep their Sample marks, the warning stays (saying the home page now
 * shows only the firm's own), the first-day checklist does not tick Testimonials, and the home page
 * shows the one real quote, not the samples. Confirming one sample and editing another make them the
 * firm's; once every sample is dealt with, the checklist ticks Testimonials and the warning goes.
 * Every view passes axe, has no heading-order skip and does not overflow at 390 and 1280 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { DEFAULT_TESTIMONIALS } from "../../server/domains/site/defaults.ts";
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

const REAL = { text: "They found a deduction three other firms missed.", author: "Ruth Okafor", business: "Florist" };

async function homePage(viewport: (typeof viewports)[keyof typeof viewports]) {
  // Without motion the carousel's slides do not fade while axe reads their colours.
  const t = await newPage(browser, { baseURL: server.url, viewport, reducedMotion: "reduce" });
  await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
  await t.page.goto("/");
  await t.page.locator("#about").scrollIntoViewIfNeeded();
  await t.page.getByRole("heading", { name: "What our clients say" }).waitFor();
  return t;
}

const checklistStep = async (page: Page) => {
  await page.goto("/admin/dashboard");
  const step = page.locator('[data-step="testimonials"]');
  await step.waitFor();
  return step.getAttribute("data-done");
};

const samples = (page: Page) => page.getByRole("list", { name: "Testimonials" }).getByText("Sample", { exact: true });

describe("sample testimonials", { timeout: 120_000 }, () => {
  for (const viewport of [viewports.mobile, viewports.desktop]) {
    it(`a new site's carousel says its quotes are samples at ${viewport.width}px`, async () => {
      const t = await homePage(viewport);
      await t.page.getByText("Sample testimonials: invented to show the layout, not our clients' words.").waitFor();
      expect(await t.page.getByRole("button", { name: /^Show testimonial \d+ of 12$/ }).count()).toBe(12);
      // Every quote the carousel draws (its track repeats some, to wrap around) is marked.
      const captions = await t.page.locator("figcaption").count();
      expect(captions).toBeGreaterThanOrEqual(12);
      expect(await t.page.locator("figcaption").getByText("Sample", { exact: true }).count()).toBe(captions);
      await expectAccessibleWithHeadings(t.page, "samples-home-new");
      t.expectNoConsoleErrors();
      await t.close();
    });
  }

  it("one real testimonial and Save all leave the twelve samples samples, unpublished, and the checklist unticked", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(firmUser, "admin", { viewport: viewports.desktop });
    await page.goto("/admin/dashboard?tab=site");
    await page.getByRole("list", { name: "Testimonials" }).waitFor();
    expect(await samples(page).count()).toBe(12);

    await page.getByRole("button", { name: "Add testimonial" }).click();
    await page.getByLabel("Quote").fill(REAL.text);
    await page.getByLabel("Author").fill(REAL.author);
    await page.getByLabel("Business type").fill(REAL.business);
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Save all" }).click();
    await page.locator("[data-sonner-toast]", { hasText: "Testimonials updated successfully" }).first().waitFor();

    // The samples are still samples, marked, and the firm is still told so.
    await expect.poll(() => samples(page).count()).toBe(12);
    const warning = page.getByRole("status").filter({ hasText: "12 sample testimonials are still in your list" });
    await warning.getByText("the home page shows only your own quotes and leaves the samples out", { exact: false }).waitFor();
    await page.getByText("12 quotes are still a sample: the home page shows only your own.", { exact: false }).waitFor();
    await page.getByRole("region", { name: "Testimonials on the home page" }).scrollIntoViewIfNeeded();
    await expectAccessibleWithHeadings(page, "samples-after-save-all");
    const stored = JSON.parse(
      (await server.db.selectFrom("site_content").select("value").where("section", "=", "testimonials").executeTakeFirstOrThrow()).value,
    ) as Array<{ sample?: boolean }>;
    expect(stored.filter((t) => t.sample === true)).toHaveLength(12);

    expect(await checklistStep(page)).toBe("false");
    expectNoConsoleErrors();
  });

  for (const viewport of [viewports.mobile, viewports.desktop]) {
    it(`the home page then publishes the firm's own quote, not the samples, at ${viewport.width}px`, async () => {
      const t = await homePage(viewport);
      await t.page.getByText(REAL.text).waitFor();
      for (const sample of DEFAULT_TESTIMONIALS) expect(await t.page.getByText(sample.author).count()).toBe(0);
      expect(await t.page.getByText("Sample testimonials", { exact: false }).count()).toBe(0);
      await expectAccessibleWithHeadings(t.page, "samples-home-own");
      t.expectNoConsoleErrors();
      await t.close();
    });
  }

  it("confirming or editing makes a sample the firm's; with none left the checklist ticks Testimonials", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(firmUser, "admin", { viewport: viewports.mobile });
    await page.goto("/admin/dashboard?tab=site");
    await page.getByRole("list", { name: "Testimonials" }).waitFor();

    await page.getByRole("button", { name: "Confirm the testimonial by James Whitfield as a client's real words" }).click();
    await expect.poll(() => samples(page).count()).toBe(11);
    await page.getByRole("button", { name: "Edit testimonial by Priya Raman" }).click();
    await page.getByLabel("Quote").fill("Payroll used to eat my Fridays. Now it just happens.");
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Save all" }).click();
    await expect.poll(() => samples(page).count()).toBe(10);
    await expectAccessibleWithHeadings(page, "samples-confirmed-edited", "mobile");

    // The home page now has three of the firm's own: the real one, the confirmed one, the edited one.
    const visitor = await homePage(viewports.desktop);
    await visitor.page.getByText("James Whitfield").first().waitFor({ state: "attached" });
    await visitor.page.getByText("Payroll used to eat my Fridays. Now it just happens.").first().waitFor({ state: "attached" });
    expect(await visitor.page.getByTestId("testimonial-row").getByRole("listitem").count()).toBe(3);
    await visitor.close();

    // The other ten, deleted: nothing is a sample any more.
    for (let left = 10; left > 0; left--) {
      const author = (
        await page
          .getByRole("list", { name: "Testimonials" })
          .locator(":scope > li", { hasText: "Sample" })
          .first()
          .locator("figcaption span.text-foreground")
          .innerText()
      ).trim();
      await page.getByRole("button", { name: `Delete testimonial by ${author}` }).click();
      await expect.poll(() => samples(page).count()).toBe(left - 1);
    }
    await expect.poll(() => page.getByRole("status").filter({ hasText: "sample" }).count()).toBe(0);
    expect(await checklistStep(page)).toBe("true");
    expectNoConsoleErrors();
  });
});
