/*
 * The public site as a new visitor walks it, in Chromium against the real server and database:
 * welcome video, carousel, consultation form, registration and login, password reset by a real
 * emailed token (test SMTP server), and the accessibility and layout checks at 390 and 1280 px.
 * Needs the built client (`npx vite build`; `npm test` builds first).
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkA11y,
  formatViolations,
  horizontalOverflow,
  newPage,
  type NewPageOptions,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { createUser } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await smtp?.stop();
});

/** A visitor who has already seen the welcome video, so it does not cover the page. */
async function returningVisitor(options: Partial<NewPageOptions> = {}): Promise<TestPage> {
  const t = await newPage(browser, { baseURL: server.url, ...options });
  await t.context.addInitScript(() => window.localStorage.setItem("hasSeenWelcomeVideo", "true"));
  return t;
}

async function expectAccessible(page: Page, include?: string[]) {
  const violations = await checkA11y(page, include ? { include } : {});
  expect(violations, formatViolations(violations)).toEqual([]);
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text });

/** The field is marked invalid, described by `message`, and has the focus. */
async function expectFieldError(page: Page, field: Locator, message: string) {
  await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
  // Polled: a field already marked (a spent link) gets the server's message a moment later.
  const describedBy = async () => {
    const ids = ((await field.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
    return Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  };
  await expect.poll(describedBy).toContain(message);
  await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
}

/** Focus returns a moment after a dialog's exit animation; waits briefly, then names what has it. */
async function expectFocusOn(page: Page, text: string) {
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
  await page.waitForFunction((expected) => document.activeElement?.textContent?.trim() === expected, text, { timeout: 2000 }).catch(() => undefined);
  expect((await focusedText()).slice(0, 80)).toBe(text);
}

async function openLanding(page: Page) {
  await page.goto("/");
  await page.getByRole("heading", { level: 1, name: "Accounting that keeps your business moving" }).waitFor();
}

/** Scrolls to the About section, whose testimonials load as the visitor nears them. */
async function openTestimonials(page: Page) {
  await page.locator("#about").scrollIntoViewIfNeeded();
  await page.getByRole("heading", { name: "What our clients say" }).waitFor();
}

describe("landing page", { timeout: 60_000 }, () => {
  for (const viewport of [viewports.mobile, viewports.desktop]) {
    it(`is complete, accessible and fits at ${viewport.width}px`, async () => {
      const t = await returningVisitor({ viewport });
      await screenshotOnFailure(t.page, "landing", async () => {
        await openLanding(t.page);
        // On a phone the header is one row (logo, short name, portal button, menu); the links sit in the menu.
        const header = t.page.getByRole("banner");
        expect((await header.boundingBox())!.height).toBeLessThanOrEqual(72);
        const menu = t.page.getByRole("button", { name: "Menu" });
        if (viewport === viewports.mobile) {
          expect(await header.innerText()).not.toContain("Business Services");
          await menu.click();
          expect(await menu.getAttribute("aria-expanded")).toBe("true");
        } else {
          expect(await menu.isVisible()).toBe(false);
        }
        const nav = t.page.getByRole("navigation", { name: "Sections" });
        for (const name of ["Services", "About", "Contact"]) await expect(nav.getByRole("link", { name }).isVisible()).resolves.toBe(true);
        if (viewport === viewports.mobile) {
          await t.page.keyboard.press("Escape");
          await nav.waitFor({ state: "detached" });
        }
        await expect(t.page.getByRole("button", { name: "Client Portal", exact: true }).isVisible()).resolves.toBe(true);
        for (const title of [
          "Bookkeeping",
          "Tax Preparation & Planning",
          "Notary Services",
          "Administrative Services",
          "Payroll",
          "Business Consulting",
        ]) {
          await t.page.getByRole("heading", { level: 3, name: title, exact: true }).waitFor();
        }
        const notary = t.page.getByRole("link", { name: /Visit the notary site/ });
        expect(await notary.getAttribute("href")).toBe("https://www.nationalnotary.org/");
        expect(await notary.getAttribute("target")).toBe("_blank");
        expect(await notary.getAttribute("rel")).toContain("noopener");
        await t.page.getByText("(555) 010-4200").first().waitFor();

        await t.page.getByRole("link", { name: "Schedule Consultation" }).click();
        await t.page.waitForFunction(() => location.hash === "#contact");
        // The form loads as the visitor heads for the contact section.
        await t.page.getByRole("button", { name: "Schedule Consultation", exact: true }).waitFor();

        expect(await horizontalOverflow(t.page)).toBe(0);
        // A slide moving during the check would be measured mid-fade.
        await t.page.getByRole("button", { name: "Pause autoplay" }).click();
        await expectAccessible(t.page);
        await takeScreenshot(t.page, "landing");

        await t.page.getByRole("button", { name: "Client Portal", exact: true }).click();
        await t.page.getByRole("dialog", { name: "Client Portal" }).waitFor();
        await expectAccessible(t.page, ['[role="dialog"]']);
        await takeScreenshot(t.page, "landing-client-portal");
        await t.page.getByRole("tab", { name: "Register" }).click();
        await expectAccessible(t.page, ['[role="dialog"]']);
        await t.page.getByRole("tab", { name: "Login" }).click();
        await t.page.getByRole("button", { name: "Forgot your password?" }).click();
        await t.page.getByRole("dialog", { name: "Forgot Password" }).waitFor();
        await expectAccessible(t.page, ['[role="dialog"]']);
        expect(await horizontalOverflow(t.page)).toBe(0);
        await takeScreenshot(t.page, "landing-forgot-password");

        // Neither dialog has a Radix trigger: closing hands focus back to the button that opened the first.
        await t.page.keyboard.press("Escape");
        await t.page.getByRole("dialog").waitFor({ state: "detached" });
        await expectFocusOn(t.page, "Client Portal");
        await t.page.keyboard.press("Enter");
        await t.page.getByRole("dialog", { name: "Client Portal" }).waitFor();
        await t.page.keyboard.press("Escape");
        await t.page.getByRole("dialog").waitFor({ state: "detached" });
        await expectFocusOn(t.page, "Client Portal");
      });
      t.expectNoConsoleErrors();
      await t.close();
    });
  }

  it("shows the welcome video once; Skip sets the flag; Escape closes it", async () => {
    const t = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile });
    // Time flows as usual on Playwright's clock (the first wait below is real); the checks that
    // nothing appears fast-forward it instead of waiting.
    await t.page.clock.install();
    await screenshotOnFailure(t.page, "welcome-video", async () => {
      const started = Date.now();
      await openLanding(t.page);
      const dialog = t.page.getByRole("dialog", { name: /^Welcome to / });
      await dialog.waitFor({ timeout: 5000 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
      await expectAccessible(t.page, ['[role="dialog"]']);
      await takeScreenshot(t.page, "welcome-video");

      // Focus stays inside: tabbing around never leaves the dialog.
      for (let i = 0; i < 6; i++) {
        await t.page.keyboard.press("Tab");
        expect(await t.page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
      }
      await dialog.getByRole("button", { name: "Skip" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect(await t.page.evaluate(() => localStorage.getItem("hasSeenWelcomeVideo"))).toBe("true");

      await t.page.reload();
      await openLanding(t.page);
      await t.page.clock.runFor(2500);
      expect(await t.page.getByRole("dialog").count()).toBe(0);

      // Playing sets the flag too; Escape closes the modal.
      await t.page.evaluate(() => localStorage.removeItem("hasSeenWelcomeVideo"));
      await t.page.reload();
      await dialog.waitFor({ timeout: 10_000 });
      await dialog.getByRole("button", { name: "Play video" }).click();
      await dialog.getByRole("progressbar", { name: "Video progress" }).waitFor();
      expect(await t.page.evaluate(() => localStorage.getItem("hasSeenWelcomeVideo"))).toBe("true");
      await t.page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("the welcome video waits for an open dialog to close, and stays away after a reset link", async () => {
    const t = await newPage(browser, { baseURL: server.url });
    await t.page.clock.install();
    await screenshotOnFailure(t.page, "welcome-video-waits", async () => {
      await openLanding(t.page);
      await t.page.getByRole("button", { name: "Client Portal", exact: true }).click();
      await t.page.getByRole("dialog", { name: "Client Portal" }).waitFor();
      await t.page.clock.runFor(2500);
      expect(await t.page.getByRole("dialog").count()).toBe(1);

      await t.page.keyboard.press("Escape");
      const welcome = t.page.getByRole("dialog", { name: "Welcome to Harborline Accounting & Business Services" });
      await welcome.waitFor({ timeout: 5000 });
      await welcome.getByRole("button", { name: "Skip" }).click();
      await welcome.waitFor({ state: "detached" });

      await t.page.evaluate(() => localStorage.removeItem("hasSeenWelcomeVideo"));
      await t.page.goto("/?reset_token=not-a-real-token");
      await t.page.getByRole("dialog").getByRole("heading", { name: "Reset Password" }).waitFor();
      await t.page.keyboard.press("Escape");
      // Its closing animation runs on real time; then 2.5 s of the page's timers pass at once.
      await t.page.getByRole("dialog").waitFor({ state: "detached" });
      await t.page.clock.runFor(2500);
      expect(await t.page.getByRole("dialog").count()).toBe(0);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("shows the shipped images when site content names images on another host", async () => {
    const stored = [
      { section: "hero", key: "image", value: "https://cdn.example.com/hero.png" },
      { section: "about", key: "image", value: "//cdn.example.com/about.png" },
      { section: "company", key: "logo", value: "https://cdn.example.com/logo.png" },
    ];
    await server.db.insertInto("site_content").values(stored).execute();
    const t = await returningVisitor();
    try {
      await openLanding(t.page);
      const sources = () => t.page.locator("img").evaluateAll((images) => images.map((img) => img.getAttribute("src")));
      await expect.poll(sources).toContain("/images/hero.svg");
      const shown = await sources();
      expect(shown).toContain("/images/about.svg");
      expect(shown).toContain("/images/logo.svg");
      expect(shown.filter((src) => !src?.startsWith("/images/"))).toEqual([]);
      t.expectNoConsoleErrors();
    } finally {
      await t.close();
      for (const { section, key } of stored)
        await server.db.deleteFrom("site_content").where("section", "=", section).where("key", "=", key).execute();
    }
  });

  it("carousel: autoplay, next, previous with wrap-around, dots and pause", async () => {
    const t = await returningVisitor();
    // The page's timers run on Playwright's clock: a 4 s step is fast-forwarded, not waited for.
    await t.page.clock.install();
    await screenshotOnFailure(t.page, "carousel", async () => {
      await openLanding(t.page);
      await openTestimonials(t.page);
      const track = t.page.locator("[data-active]");
      const active = async () => Number(await track.getAttribute("data-active"));
      const dots = t.page.getByRole("button", { name: /^Show testimonial \d+ of 12$/ });
      expect(await dots.count()).toBe(12);
      expect(await t.page.locator('li[data-visible="true"]').count()).toBe(3);

      // Autoplay is on by default: one step after about 4 s.
      expect(await active()).toBe(0);
      await t.page.clock.runFor(4000);
      await expect.poll(active).toBe(1);

      await t.page.getByRole("button", { name: "Pause autoplay" }).click();
      await t.page.getByRole("button", { name: "Resume autoplay" }).waitFor();
      await dots.nth(0).click();
      expect(await active()).toBe(0);
      await t.page.getByRole("button", { name: "Previous testimonial" }).click();
      expect(await active()).toBe(11);
      expect(await dots.nth(11).getAttribute("aria-current")).toBe("true");
      // The window after the last item wraps to the first ones.
      expect(await t.page.locator('li[data-visible="true"] figcaption > span:first-child').allTextContents()).toEqual([
        "Victor Alvarez",
        "Maria Gonzalez",
        "James Whitfield",
      ]);
      await t.page.getByRole("button", { name: "Next testimonial" }).click();
      expect(await active()).toBe(0);
      await dots.nth(6).click();
      expect(await active()).toBe(6);

      // Paused: nothing moves.
      await t.page.clock.runFor(4500);
      expect(await active()).toBe(6);
      await t.page.getByRole("button", { name: "Resume autoplay" }).click();
      await t.page.clock.runFor(4000);
      await expect.poll(active).toBe(7);

      // A manual step restarts the 4 s: no second jump a moment after the click.
      await t.page.clock.runFor(3000);
      expect(await active()).toBe(7);
      await t.page.getByRole("button", { name: "Next testimonial" }).click();
      expect(await active()).toBe(8);
      await t.page.clock.runFor(2000);
      expect(await active()).toBe(8);
      await t.page.clock.runFor(2000);
      await expect.poll(active).toBe(9);
      expect(await track.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe("0.5s");

      // On a phone one testimonial fills the width: only it counts as shown, the rest are dimmed.
      await t.page.getByRole("button", { name: "Pause autoplay" }).click();
      await t.page.setViewportSize(viewports.mobile);
      await expect.poll(() => t.page.locator('li[data-visible="true"]').count()).toBe(1);
      expect(
        await t.page
          .locator('li[data-visible="false"]')
          .first()
          .evaluate((li) => (li as HTMLElement).inert),
      ).toBe(true);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("carousel does not autoplay for visitors who prefer reduced motion", async () => {
    const t = await returningVisitor({ reducedMotion: "reduce" });
    await t.page.clock.install();
    await openLanding(t.page);
    await openTestimonials(t.page);
    await t.page.getByRole("button", { name: "Resume autoplay" }).waitFor();
    await t.page.clock.runFor(4500);
    expect(await t.page.locator("[data-active]").getAttribute("data-active")).toBe("0");
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("consultation form: every validation message, then a request stored in the database", async () => {
    const t = await returningVisitor({ viewport: viewports.mobile });
    await screenshotOnFailure(t.page, "consultation", async () => {
      await openLanding(t.page);
      // Far below the fold, the form loads only as the visitor heads for it.
      await expect(t.page.getByText("Loading the consultation form…").count()).resolves.toBe(1);
      await t.page.getByRole("link", { name: "Schedule Consultation" }).click();
      const form = t.page.locator("form", { has: t.page.getByRole("button", { name: "Schedule Consultation", exact: true }) });
      const submit = form.getByRole("button", { name: "Schedule Consultation", exact: true });
      // Each message stands under the field at fault, which is marked and focused.
      const expectFieldError = async (label: string, message: string) => {
        const field = form.getByLabel(label);
        await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
        const describedBy = (await field.getAttribute("aria-describedby"))!.split(" ");
        const texts = await Promise.all(describedBy.map((id) => t.page.locator(`[id="${id}"]`).textContent()));
        expect(texts).toContain(message);
        await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
      };

      await submit.click();
      await expectFieldError("Full Name", "Please fill in all required fields");
      await form.getByLabel("Full Name").fill("Nora Quinn");
      await submit.click();
      await expectFieldError("Email", "Please fill in all required fields");
      await form.getByLabel("Email").fill("nora@example.com");
      await submit.click();
      await expectFieldError("Phone", "Please fill in all required fields");
      await form.getByLabel("Email").fill("not-an-email");
      await form.getByLabel("Phone").fill("(555) 123-4567");
      await submit.click();
      await expectFieldError("Email", "Please enter a valid email address");
      expect(await form.getByLabel("Full Name").getAttribute("aria-invalid")).toBeNull();
      expect(await server.db.selectFrom("consultation_requests").select("id").execute()).toHaveLength(0);

      const serviceOptions = await form.getByLabel("Service").locator("option").allTextContents();
      expect(serviceOptions.slice(1)).toEqual([
        "Bookkeeping Services",
        "Tax Preparation & Planning",
        "Notary Services",
        "Administrative Services",
        "Business Consulting",
        "Other",
      ]);
      await form.getByLabel("Email").fill("nora@example.com");
      await form.getByLabel("Service").selectOption("tax-prep");
      // A past date is refused in the browser (and by the server): the date input's minimum is today.
      const today = await t.page.evaluate(() => new Date().toLocaleDateString("en-CA"));
      expect(await form.getByLabel("Preferred Date").getAttribute("min")).toBe(today);
      await form.getByLabel("Preferred Date").fill("2020-01-02");
      await submit.click();
      await expectFieldError("Preferred Date", "Please choose a date from today on");
      await form.getByLabel("Preferred Date").fill("2031-03-14");
      await form.getByLabel("Preferred Time").selectOption("afternoon");
      await form.getByLabel("Message").fill("Quarterly estimates for a new bakery.");
      await submit.click();
      // The thank-you takes the form's place in its card (a toast would cover the button on a phone).
      const thanks = t.page.getByRole("status").filter({ hasText: "Thank you!" });
      await thanks.getByText("Consultation request sent successfully! We'll contact you within 24 hours.").waitFor();
      await expect.poll(() => thanks.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await toast(t.page, "Consultation request sent successfully!").count()).toBe(0);
      await expectAccessible(t.page);
      await takeScreenshot(t.page, "consultation-thanks");
      await thanks.getByRole("button", { name: "Send another request" }).click();
      expect(await form.getByLabel("Full Name").inputValue()).toBe("");
      expect(await form.getByLabel("Service").inputValue()).toBe("");
      // The visitor is mailed a confirmation too.
      await expect.poll(() => smtp.messages.some((m) => m.to.includes("nora@example.com")), { timeout: 10_000 }).toBe(true);

      const rows = await server.db
        .selectFrom("consultation_requests")
        .select(["name", "email", "phone", "service", "preferred_time", "message"])
        .execute();
      expect(rows).toEqual([
        {
          name: "Nora Quinn",
          email: "nora@example.com",
          phone: "(555) 123-4567",
          service: "tax-prep",
          preferred_time: "afternoon",
          message: "Quarterly estimates for a new bakery.",
        },
      ]);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("registers, logs in, and the Client Portal button then reads Dashboard; every refusal sits on its field", async () => {
    await createUser(server.db, { username: "taken.name", email: "taken@example.com" });
    const t = await returningVisitor();
    await screenshotOnFailure(t.page, "register-login", async () => {
      await openLanding(t.page);
      await t.page.getByRole("button", { name: "Client Portal", exact: true }).click();
      const dialog = t.page.getByRole("dialog", { name: "Client Portal" });
      // Google sign-in is not configured on this server: no button that can only fail.
      expect(await dialog.getByRole("button", { name: "Continue with Google" }).count()).toBe(0);
      await dialog.getByRole("tab", { name: "Register" }).click();
      const register = dialog.getByRole("form", { name: "Register" });
      await expect(
        register.getByText("At least 6 characters. Common passwords, such as password123, and others easy to guess are refused.").isVisible(),
      ).resolves.toBe(true);
      const expectOnField = (label: string, message: string) => expectFieldError(t.page, register.getByLabel(label, { exact: true }), message);

      await register.getByRole("button", { name: "Create Account" }).click();
      await expectOnField("Username", "Please fill in all fields");
      await register.getByLabel("Username").fill("taken.name");
      await register.getByLabel("Email").fill("nora.q@example.com");
      await register.getByLabel("Full Name").fill("Nora Quinn");
      await register.getByLabel("Password", { exact: true }).fill("Tidy-Ledger-2031");
      await register.getByLabel("Confirm Password").fill("Tidy-Ledger-2032");
      await register.getByRole("button", { name: "Create Account" }).click();
      await expectOnField("Confirm Password", "Passwords do not match");
      await register.getByLabel("Password", { exact: true }).fill("abc");
      await register.getByLabel("Confirm Password").fill("abc");
      await register.getByRole("button", { name: "Create Account" }).click();
      await expectOnField("Password", "Password must be at least 6 characters long");

      // The server's refusals: each on its field, none as a toast.
      await register.getByLabel("Password", { exact: true }).fill("password123");
      await register.getByLabel("Confirm Password").fill("password123");
      await register.getByRole("button", { name: "Create Account" }).click();
      await expectOnField("Password", "This password is too common. Please choose a less predictable one.");
      await register.getByLabel("Password", { exact: true }).fill("Tidy-Ledger-2031");
      await register.getByLabel("Confirm Password").fill("Tidy-Ledger-2031");
      await register.getByRole("button", { name: "Create Account" }).click();
      await expectOnField("Username", "Username already exists");
      await register.getByLabel("Username").fill("nora.q");
      await register.getByLabel("Email").fill("taken@example.com");
      await register.getByRole("button", { name: "Create Account" }).click();
      await expectOnField("Email", "Email already registered");
      expect(await t.page.locator("[data-sonner-toast]").count()).toBe(0);
      await expectAccessible(t.page, ['[role="dialog"]']);
      await takeScreenshot(t.page, "register-field-error");

      // The show-password toggle reveals what was typed, and hides it again.
      const password = register.getByLabel("Password", { exact: true });
      await register.getByRole("button", { name: "Show password" }).first().click();
      expect(await password.getAttribute("type")).toBe("text");
      await register.getByRole("button", { name: "Hide password" }).click();
      expect(await password.getAttribute("type")).toBe("password");

      await register.getByLabel("Email").fill("nora.q@example.com");
      // Each toast is watched for before the click: on a loaded machine one has come and gone
      // (4 s) before a wait begun after the click looked.
      const registered = toast(t.page, "Registration successful! Please log in.").waitFor();
      await register.getByRole("button", { name: "Create Account" }).click();
      await registered;

      // Switched to Login; the registration fields were cleared.
      expect(await dialog.getByRole("tab", { name: "Login" }).getAttribute("aria-selected")).toBe("true");
      await dialog.getByRole("tab", { name: "Register" }).click();
      expect(await register.getByLabel("Username").inputValue()).toBe("");
      await dialog.getByRole("tab", { name: "Login" }).click();

      const login = dialog.getByRole("form", { name: "Login" });
      await login.getByRole("button", { name: "Login" }).click();
      await expectFieldError(t.page, login.getByLabel("Username"), "Please fill in all fields");
      await login.getByLabel("Username").fill("nora.q");
      await login.getByLabel("Password", { exact: true }).fill("wrong-password-1");
      await login.getByRole("button", { name: "Login" }).click();
      await expectFieldError(t.page, login.getByLabel("Password", { exact: true }), "Invalid username or password");
      expect(await toast(t.page, "Invalid username or password").count()).toBe(0);
      await login.getByLabel("Password", { exact: true }).fill("Tidy-Ledger-2031");
      const loggedIn = toast(t.page, "Logged in successfully!").waitFor();
      await login.getByRole("button", { name: "Login" }).click();
      await loggedIn;
      // The toasts of one form replace each other rather than pile up (this one may be gone by now).
      expect(await t.page.locator("[data-sonner-toast]").count()).toBeLessThanOrEqual(1);
      await t.page.waitForURL("**/dashboard");

      await openLanding(t.page);
      await t.page.getByRole("button", { name: "Dashboard", exact: true }).click();
      await t.page.waitForURL("**/dashboard");
    });
    // The refusals are 4xx answers the browser logs as failed requests.
    t.expectNoConsoleErrors({ allow: [/status of 40[019]/] });
    await t.close();
  });

  it("resets a forgotten password with the emailed token, then logs in with the new one", async () => {
    const user = await createUser(server.db, { email: "reset.me@example.com" });
    const t = await returningVisitor({ viewport: viewports.mobile });
    const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
    await screenshotOnFailure(t.page, "forgot-password", async () => {
      await openLanding(t.page);
      await t.page.getByRole("button", { name: "Client Portal", exact: true }).click();
      await t.page.getByRole("button", { name: "Forgot your password?" }).click();
      const dialog = t.page.getByRole("dialog");
      await dialog.getByRole("heading", { name: "Forgot Password" }).waitFor();

      await dialog.getByRole("button", { name: "Send Reset Link" }).click();
      await expect(dialog.getByRole("alert").textContent()).resolves.toBe("Please enter your email address");
      await dialog.getByLabel("Email").fill("someone.else@example.com");
      await dialog.getByRole("button", { name: "Send Reset Link" }).click();
      await dialog.getByRole("heading", { name: "Check Your Email" }).waitFor();
      await toast(t.page, "Password reset instructions sent to your email!").first().waitFor();
      await dialog.getByText("someone.else@example.com").waitFor();
      await dialog.getByText(/spam folder/).waitFor();
      await expectAccessible(t.page, ['[role="dialog"]']);

      // Try Different Email goes back and clears the email and the token.
      await dialog.getByLabel(/reset token/i).fill("leftover");
      await dialog.getByRole("button", { name: "Try Different Email" }).click();
      expect(await dialog.getByLabel("Email").inputValue()).toBe("");
      await dialog.getByLabel("Email").fill(user.email);
      await dialog.getByRole("button", { name: "Send Reset Link" }).click();
      await dialog.getByRole("heading", { name: "Check Your Email" }).waitFor();
      expect(await dialog.getByLabel(/reset token/i).inputValue()).toBe("");

      const deadline = Date.now() + 10_000;
      while (mailsTo(user.email).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const mail = mailsTo(user.email)[0];
      const token = mail ? /\?reset_token=([a-z2-7]+)/.exec(mail.text)?.[1] : undefined;
      expect(token).toBeTruthy();

      await dialog.getByLabel(/reset token/i).fill(token!);
      await dialog.getByRole("button", { name: "Continue to Reset Password" }).click();
      await dialog.getByRole("heading", { name: "Reset Password" }).waitFor();
      expect(await dialog.getByLabel("Reset Token").inputValue()).toBe(token);
      await dialog.getByRole("button", { name: "Back", exact: true }).click();
      await dialog.getByRole("heading", { name: "Check Your Email" }).waitFor();
      await dialog.getByRole("button", { name: "Continue to Reset Password" }).click();
      await expectAccessible(t.page, ['[role="dialog"]']);

      const newPassword = dialog.getByLabel("New Password", { exact: true });
      const confirmPassword = dialog.getByLabel("Confirm New Password", { exact: true });
      await newPassword.fill("Fresh-Harbor-Ledger-9");
      await confirmPassword.fill("Fresh-Harbor-Ledger-8");
      await dialog.getByRole("button", { name: "Reset Password" }).click();
      await expectFieldError(t.page, confirmPassword, "Passwords do not match");
      await newPassword.fill("short");
      await confirmPassword.fill("short");
      await dialog.getByRole("button", { name: "Reset Password" }).click();
      await expectFieldError(t.page, newPassword, "Password must be at least 6 characters long");
      await newPassword.fill("Fresh-Harbor-Ledger-9");
      await confirmPassword.fill("Fresh-Harbor-Ledger-9");
      await dialog.getByRole("button", { name: "Reset Password" }).click();
      await toast(t.page, "Password reset successfully! You can now login with your new password.").waitFor();

      // Login opens with the username filled in and the message above it.
      const portal = t.page.getByRole("dialog", { name: "Client Portal" });
      await portal.getByRole("status").filter({ hasText: "Password reset successfully!" }).waitFor();
      const login = portal.getByRole("form", { name: "Login" });
      expect(await login.getByLabel("Username").inputValue()).toBe(user.username);
      await expectAccessible(t.page, ['[role="dialog"]']);
      await takeScreenshot(t.page, "login-after-reset");
      await login.getByLabel("Password", { exact: true }).fill("Fresh-Harbor-Ledger-9");
      await login.getByRole("button", { name: "Login" }).click();
      await toast(t.page, "Logged in successfully!").waitFor();
      await t.page.waitForURL("**/dashboard");
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("a spent reset link says so as it opens, before any password is typed, and leaves the URL clean", async () => {
    const t = await returningVisitor();
    await t.page.goto("/?reset_token=abcdefghijklmnop");
    const dialog = t.page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Reset Password" }).waitFor();
    const token = dialog.getByLabel("Reset Token");
    expect(await token.inputValue()).toBe("abcdefghijklmnop");
    await t.page.waitForFunction(() => location.search === "");
    await expect.poll(() => token.getAttribute("aria-invalid")).toBe("true");
    await dialog.getByText("This reset link has expired or was already used. Request a new link below.").waitFor();
    expect(await dialog.getByLabel("New Password", { exact: true }).inputValue()).toBe("");
    await expectAccessible(t.page, ['[role="dialog"]']);
    await takeScreenshot(t.page, "reset-link-spent");
    // Typed anyway: the server's refusal lands on the token field too, not in a toast.
    await dialog.getByLabel("New Password", { exact: true }).fill("Fresh-Harbor-Ledger-9");
    await dialog.getByLabel("Confirm New Password").fill("Fresh-Harbor-Ledger-9");
    await dialog.getByRole("button", { name: "Reset Password" }).click();
    await expectFieldError(t.page, token, "Invalid or expired reset token");
    expect(await toast(t.page, "Invalid or expired reset token").count()).toBe(0);
    await dialog.getByRole("button", { name: "Request a New Link" }).click();
    await dialog.getByRole("heading", { name: "Forgot Password" }).waitFor();
    t.expectNoConsoleErrors({ allow: [/status of 4\d\d/] });
    await t.close();
  });

  it("a failed Google sign-in toasts and the parameter is removed; an unconfigured Google is not offered", async () => {
    // Narrower than the 356 px toast plus its margins: the toast must still fit the screen.
    const t = await returningVisitor({ viewport: { width: 360, height: 740 } });
    await t.page.goto("/?auth_error=1");
    await toast(t.page, "Authentication failed. Please try again.").waitFor();
    await t.page.waitForFunction(() => location.search === "");
    expect(await toast(t.page, "Authentication failed. Please try again.").count()).toBe(1);
    const box = await toast(t.page, "Authentication failed. Please try again.").boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);

    // Without Google configured, the dialog offers no Google button at all.
    await t.page.getByRole("button", { name: "Client Portal", exact: true }).click();
    await t.page.getByRole("form", { name: "Login" }).waitFor();
    await t.page.waitForLoadState("networkidle");
    expect(await t.page.getByRole("button", { name: "Continue with Google" }).count()).toBe(0);
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("footer, skip link and touch targets: the full firm name, all six services, 44 px on a phone", async () => {
    const t = await returningVisitor({ viewport: viewports.mobile });
    await screenshotOnFailure(t.page, "footer", async () => {
      await openLanding(t.page);
      await t.page.keyboard.press("Tab");
      const skip = t.page.getByRole("link", { name: "Skip to main content" });
      await expect.poll(() => skip.evaluate((el) => el === document.activeElement)).toBe(true);
      await t.page.keyboard.press("Enter");
      await expect.poll(() => t.page.evaluate(() => document.activeElement?.id)).toBe("main");

      const footer = t.page.getByRole("contentinfo");
      const name = footer.getByText("Harborline Accounting & Business Services", { exact: true });
      expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const services = footer.getByRole("navigation", { name: "Services" }).getByRole("link");
      expect(await services.allInnerTexts()).toEqual([
        "Bookkeeping",
        "Tax Preparation & Planning",
        "Notary Services",
        "Administrative Services",
        "Payroll",
        "Business Consulting",
      ]);

      const small = await t.page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("header button, header a, main button, main input, main select")]
          .filter((el) => el.offsetParent !== null && !el.closest(".sr-only") && !el.closest('[aria-hidden="true"], [inert]'))
          .map((el) => ({ el: el.getAttribute("aria-label") ?? el.textContent?.trim(), height: el.getBoundingClientRect().height }))
          .filter(({ el, height }) => height < 44 && !/^Show testimonial/.test(el ?? "")),
      );
      expect(small).toEqual([]);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });

  it("carousel: three testimonials or fewer stand in a static row; a swipe moves it on a phone", async () => {
    const few = [
      { text: "They found deductions we had missed for years.", author: "Ana Ruiz", business: "Bakery" },
      { text: "Payroll runs itself now.", author: "Tom Park", business: "Landscaping" },
    ];
    await server.db
      .insertInto("site_content")
      .values({ section: "testimonials", key: "data", value: JSON.stringify(few) })
      .execute();
    try {
      const t = await returningVisitor();
      await openLanding(t.page);
      await openTestimonials(t.page);
      const row = t.page.getByTestId("testimonial-row");
      await row.getByText("Payroll runs itself now.").waitFor();
      expect(await row.getByRole("listitem").count()).toBe(2);
      for (const control of ["Previous testimonial", "Next testimonial", "Pause autoplay"]) {
        expect(await t.page.getByRole("button", { name: control }).count()).toBe(0);
      }
      expect(await t.page.getByRole("button", { name: /^Show testimonial/ }).count()).toBe(0);
      t.expectNoConsoleErrors();
      await t.close();
    } finally {
      await server.db.deleteFrom("site_content").where("section", "=", "testimonials").execute();
    }

    const phone = await returningVisitor({ viewport: viewports.mobile, reducedMotion: "reduce" });
    await openLanding(phone.page);
    await openTestimonials(phone.page);
    const track = phone.page.locator("ul[data-active]");
    await track.scrollIntoViewIfNeeded();
    expect(await track.getAttribute("data-active")).toBe("0");
    const viewport = track.locator("xpath=..");
    const box = (await viewport.boundingBox())!;
    const y = box.y + box.height / 2;
    const swipe = async (fromX: number, toX: number) => {
      await viewport.dispatchEvent("pointerdown", { pointerType: "touch", clientX: fromX, clientY: y, isPrimary: true });
      await viewport.dispatchEvent("pointerup", { pointerType: "touch", clientX: toX, clientY: y + 5, isPrimary: true });
    };
    await swipe(box.x + box.width - 20, box.x + 40);
    await expect.poll(() => track.getAttribute("data-active")).toBe("1");
    await swipe(box.x + 40, box.x + box.width - 20);
    await expect.poll(() => track.getAttribute("data-active")).toBe("0");
    await swipe(box.x + 40, box.x + box.width - 20);
    await expect.poll(() => track.getAttribute("data-active")).toBe("11");
    // A small drag is not a swipe.
    await swipe(box.x + 100, box.x + 90);
    await phone.page.waitForTimeout(100);
    expect(await track.getAttribute("data-active")).toBe("11");
    phone.expectNoConsoleErrors();
    await phone.close();
  });
});
