/*
 * The firm's own pictures and video (issue 31) in Chromium against the real server: the admin
 * uploads a logo, a welcome video and its captions from the Site tab, sees the samples warning on
 * the built-in testimonials, hides the section and turns the modal off; the public site shows the
 * logo, plays the video from the welcome modal, and leaves out what was turned off. axe and
 * screenshots at 390 and 1280 px. Needs the built client (global-setup-client.ts builds it).
 */
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInPage } from "../helpers/admin-sign-in.ts";
import {
  checkA11y,
  expectAccessibleAtBothWidths,
  formatViolations,
  newPage,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  type TestPage,
  viewports,
} from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let browser: Browser;
let adminUser: UserFixture;
let admin: TestPage;

/** A logo as a firm would have one: an orange disc on white, as a PNG. */
const logoPng = () =>
  sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#fff"/><circle cx="128" cy="128" r="110" fill="#ea580c"/></svg>',
    ),
  )
    .png()
    .toBuffer();

/** Two seconds of WebM recorded by the browser itself from a canvas (no video tool on the machine). */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 180;
    const ctx = canvas.getContext("2d")!;
    const recorder = new MediaRecorder(canvas.captureStream(15), { mimeType: "video/webm" });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const draw = () => {
        const t = performance.now() - started;
        ctx.fillStyle = "#1b2f55";
        ctx.fillRect(0, 0, 320, 180);
        ctx.fillStyle = "#34d399";
        ctx.fillRect((t / 10) % 320, 60, 60, 60);
        if (t < 2000) requestAnimationFrame(draw);
        else resolve();
      };
      draw();
    });
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks, { type: "video/webm" }).arrayBuffer());
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, "base64");
}

const CAPTIONS = "WEBVTT\n\n00:00.000 --> 00:02.000\nWelcome to our firm\n";

/** The Site tab's sections of this feature, one image each at 390 and 1280 px, to look at. */
async function shootSections(page: Page, name: string) {
  for (const viewport of [viewports.mobile, viewports.desktop]) {
    await page.setViewportSize(viewport);
    for (const region of ["Logo and pictures", "Welcome video file", "Testimonials on the home page"]) {
      await page
        .getByRole("region", { name: region })
        .screenshot({ path: `test-output/screenshots/sections/${name}-${region.replace(/\W+/g, "-")}-${viewport.width}.png` });
    }
  }
}

async function openSiteTab(page: Page) {
  await page.goto("/admin/dashboard?tab=site");
  await page.getByRole("heading", { name: "Logo and pictures" }).waitFor();
}

async function publicPage(viewport: (typeof viewports)[keyof typeof viewports]): Promise<TestPage> {
  // Without motion the carousel's slides do not fade while axe reads their colours.
  const t = await newPage(browser, { baseURL: server.url, viewport, reducedMotion: "reduce" });
  await t.page.goto("/");
  await t.page.locator("#main").waitFor();
  return t;
}

beforeAll(async () => {
  server = await startTestServer();
  adminUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  browser = await sharedBrowser();
  admin = await signedInPage(browser, server.url, adminUser, "admin");
}, 300_000);

afterAll(async () => {
  await admin?.close();
  await releaseBrowser(browser);
  await server?.close();
});

describe("the firm's pictures and video", () => {
  it("the Site tab says no video is set and warns that the testimonials are samples", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "site-media-start", async () => {
      await openSiteTab(page);
      await page.getByText("No video is set.", { exact: false }).waitFor();
      const warning = page.getByRole("status").filter({ hasText: "The testimonials on your home page are samples" });
      await warning.waitFor();
      expect(await page.getByRole("list", { name: "Testimonials" }).getByText("Sample", { exact: true }).count()).toBe(12);
      await expectAccessibleAtBothWidths(page, "site-media-samples-warning");
      await shootSections(page, "start");
    });
  });

  it("uploads a logo, a video and its captions, with previews", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "site-media-upload", async () => {
      await openSiteTab(page);
      // A file that is no picture is refused with the server's words, by the field.
      await page.getByLabel("Upload a logo").setInputFiles({
        name: "logo.svg",
        mimeType: "image/svg+xml",
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'),
      });
      await page.getByRole("alert").filter({ hasText: "The picture must be a PNG, JPEG or WebP image" }).waitFor();

      await page.getByLabel("Upload a logo").setInputFiles({ name: "orange-logo.png", mimeType: "image/png", buffer: await logoPng() });
      await page.getByText("Uploaded orange-logo.png: 256 × 256").waitFor();
      expect(await page.getByAltText("Logo preview").getAttribute("src")).toMatch(/^\/media\/logo-[0-9a-f]{32}\.webp$/);

      const webm = await recordWebm(page);
      await page.getByLabel("Upload a video").setInputFiles({ name: "welcome.webm", mimeType: "video/webm", buffer: webm });
      await page.getByText("Play in the welcome modal plays this video.").waitFor();
      await page.getByLabel("Upload captions").setInputFiles({ name: "welcome.vtt", mimeType: "text/vtt", buffer: Buffer.from(CAPTIONS) });
      await page.getByText(/^welcome\.vtt, /).waitFor();
      await page.getByRole("region", { name: "Welcome video file" }).scrollIntoViewIfNeeded();
      await expectAccessibleAtBothWidths(page, "site-media-uploaded");
      await shootSections(page, "uploaded");
    });
    admin.expectNoConsoleErrors({ allow: [/status of 415/] });
  }, 90_000);

  for (const [label, viewport] of Object.entries(viewports)) {
    it(`the public site shows the logo and plays the uploaded video at ${viewport.width} px`, async () => {
      const t = await publicPage(viewport);
      await screenshotOnFailure(t.page, `site-media-public-${label}`, async () => {
        const logo = t.page.locator("header img").first();
        expect(await logo.getAttribute("src")).toMatch(/^\/media\/logo-[0-9a-f]{32}\.webp$/);
        await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

        const dialog = t.page.getByRole("dialog", { name: /^Welcome to / });
        await dialog.waitFor({ timeout: 10_000 });
        await dialog.getByRole("button", { name: "Play video" }).click();
        const video = dialog.locator("video");
        await video.waitFor();
        expect(await video.locator("source").getAttribute("src")).toMatch(/^\/media\/video-[0-9a-f]{32}\.webm$/);
        expect(await video.locator("track").getAttribute("kind")).toBe("captions");
        // The browser reads the file through the range-serving route and can play it.
        await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
        expect(await t.page.evaluate(() => localStorage.getItem("hasSeenWelcomeVideo"))).toBe("true");
        const violations = await checkA11y(t.page, { include: ['[role="dialog"]'] });
        expect(violations, formatViolations(violations)).toEqual([]);
        await takeScreenshot(t.page, "site-media-public-video");
        await dialog.getByRole("button", { name: /Skip|Continue to site/ }).click();
        await dialog.waitFor({ state: "hidden" });
        const page = await checkA11y(t.page, { exclude: ["[data-sonner-toaster]"] });
        expect(page, formatViolations(page)).toEqual([]);
        await takeScreenshot(t.page, "site-media-public-logo");
      });
      t.expectNoConsoleErrors();
      await t.close();
    });
  }

  it("hides the testimonials and turns the modal off; the public site shows neither", async () => {
    const { page } = admin;
    await screenshotOnFailure(page, "site-media-hidden", async () => {
      await openSiteTab(page);
      const warning = page.getByRole("status").filter({ hasText: "The testimonials on your home page are samples" });
      await warning.getByRole("button", { name: "Hide testimonials" }).click();
      await warning.waitFor({ state: "hidden" });
      expect(await page.getByRole("checkbox", { name: /Show the testimonials section/ }).isChecked()).toBe(false);
      await page.getByText("Hidden: the home page shows no testimonials.").waitFor();
      await page.getByRole("checkbox", { name: /Show the welcome modal on a first visit/ }).uncheck();
      await expect.poll(() => page.getByRole("checkbox", { name: /Show the welcome modal/ }).isChecked()).toBe(false);
      await page.getByRole("region", { name: "Testimonials on the home page" }).scrollIntoViewIfNeeded();
      await expectAccessibleAtBothWidths(page, "site-media-hidden-admin");
      await shootSections(page, "hidden");
    });

    for (const viewport of Object.values(viewports)) {
      const t = await publicPage(viewport);
      await screenshotOnFailure(t.page, "site-media-hidden-public", async () => {
        await t.page.locator("#about").scrollIntoViewIfNeeded();
        expect(await t.page.getByText("What our clients say").count()).toBe(0);
        await t.page.waitForTimeout(2500);
        expect(await t.page.getByRole("dialog").count()).toBe(0);
        const violations = await checkA11y(t.page, { exclude: ["[data-sonner-toaster]"] });
        expect(violations, formatViolations(violations)).toEqual([]);
        await takeScreenshot(t.page, "site-media-hidden-public");
      });
      t.expectNoConsoleErrors();
      await t.close();
    }
  });

  it("without a video the modal keeps the simulated playback", async () => {
    const { page } = admin;
    await openSiteTab(page);
    await page.getByRole("button", { name: "Remove welcome video" }).click();
    await page.getByText("No video is set.", { exact: false }).waitFor();
    await page.getByRole("checkbox", { name: /Show the welcome modal on a first visit/ }).check();
    await expect.poll(() => page.getByRole("checkbox", { name: /Show the welcome modal/ }).isChecked()).toBe(true);

    const t = await publicPage(viewports.mobile);
    await screenshotOnFailure(t.page, "site-media-simulated", async () => {
      const dialog = t.page.getByRole("dialog", { name: /^Welcome to / });
      await dialog.waitFor({ timeout: 10_000 });
      await dialog.getByRole("button", { name: "Play video" }).click();
      await dialog.getByRole("progressbar", { name: "Video progress" }).waitFor();
      expect(await dialog.locator("video").count()).toBe(0);
    });
    t.expectNoConsoleErrors();
    await t.close();
  });
});
