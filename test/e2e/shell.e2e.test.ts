/*
 * The production bundle in a browser, without the API: served by `vite preview` under a CSP
 * as strict as the server's, so a page that needs inline scripts or other hosts fails here.
 */
import type { Browser } from "playwright-core";
import { type PreviewServer, preview } from "vite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  checkA11y,
  formatViolations,
  horizontalOverflow,
  newPage,
  releaseBrowser,
  screenshotOnFailure,
  sharedBrowser,
  takeScreenshot,
  viewports,
} from "../helpers/browser.ts";

const strictCsp =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

let server: PreviewServer;
let baseURL: string;
let browser: Browser;

beforeAll(async () => {
  server = await preview({
    logLevel: "silent",
    build: { outDir: inject("clientDir") },
    preview: { port: 0, headers: { "Content-Security-Policy": strictCsp } },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error("vite preview did not report its URL");
  baseURL = url;
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

describe("app shell", () => {
  it("serves the document head the spec and design ask for", async () => {
    const t = await newPage(browser, { baseURL });
    await t.page.goto("/");
    expect(await t.page.getAttribute("html", "lang")).toBe("en");
    expect(await t.page.getAttribute('meta[name="description"]', "content")).toBeTruthy();
    expect(await t.page.getAttribute('meta[name="theme-color"]', "content")).toMatch(/^#/);
    const favicon = await t.page.request.get("/favicon.svg");
    expect(favicon.headers()["content-type"]).toContain("image/svg+xml");
    await t.close();
  });

  it("shows the error page when a page's code cannot load, and leaves it on the next navigation", async () => {
    const t = await newPage(browser, { baseURL });
    await t.page.route(/\/assets\/dashboard-[^/]*\.js$/, (route) => route.abort());
    await t.page.goto("/dashboard");
    await expect(t.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Something went wrong");
    expect(await t.page.title()).toBe("Something went wrong");
    await t.page.getByRole("button", { name: "Reload page" }).waitFor();

    await t.page.evaluate(() => {
      history.pushState(null, "", "/no-such-page");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await t.page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    // The aborted request, React reporting the error the boundary caught, and the 404 page's header
    // asking for the site content of a server that has no API here.
    t.expectNoConsoleErrors({
      allow: [
        /net::ERR_FAILED .*\/assets\/dashboard-/,
        /Failed to fetch dynamically imported module: .*\/assets\/dashboard-/,
        /status of 502 \(Bad Gateway\) .*\/trpc\//,
      ],
    });
    await t.close();
  });

  for (const viewport of [viewports.mobile, viewports.desktop]) {
    it(`shows a friendly 404 page at ${viewport.width}px`, async () => {
      const t = await newPage(browser, { baseURL, viewport });
      await screenshotOnFailure(t.page, "not-found", async () => {
        await t.page.goto("/no-such-page");
        await expect(t.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Page not found");
        expect(await t.page.title()).toBe("Page not found");

        const violations = await checkA11y(t.page);
        expect(violations, formatViolations(violations)).toEqual([]);
        expect(await horizontalOverflow(t.page)).toBe(0);
        await takeScreenshot(t.page, "not-found");

        await t.page.getByRole("link", { name: "Back to the home page" }).focus();
        const outline = await t.page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
        expect(outline).toBe("solid");
      });
      // The 404 page has the site's header, whose reads fail here: this server has no API.
      t.expectNoConsoleErrors({ allow: [/status of 502 \(Bad Gateway\) .*\/trpc\//] });
      await t.close();
    });
  }
});
