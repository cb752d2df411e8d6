/*
 * Browser helpers for the e2e tests (test/e2e/**): a headless Chromium, pages that record
 * console errors, screenshots per viewport width, and axe-core accessibility checks.
 * Starting the app (server or `vite preview`) is up to the test; pass its URL as baseURL.
 */
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { ElementContext, Result, RunOptions } from "axe-core";
import type * as AxeCore from "axe-core";
import { type Browser, type BrowserContext, chromium, type FileChooser, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";

export const viewports = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

export type Viewport = { width: number; height: number };

export const screenshotDir = path.resolve("test-output/screenshots");

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * The Chromium this test process shares between its browser test files: the e2e project runs its
 * files one after another in each worker's process (vitest.config.ts, `isolate: false`), and a
 * launch per file was 2-3 s of a loaded machine's CPU, forty times a run (docs/performance.md,
 * "The test suite's time"). A file gets it in beforeAll and hands it back with releaseBrowser in
 * afterAll; each test's pages are contexts of their own, so nothing but the process is shared.
 * One that has crashed or was closed is launched again.
 */
export async function sharedBrowser(): Promise<Browser> {
  const browser = await (shared ??= launchBrowser());
  if (browser.isConnected()) return browser;
  shared = launchBrowser();
  return shared;
}

/** The end of a file's use of sharedBrowser(): the contexts the file left open are closed, the browser kept for the next file. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close()));
}

export type TestPage = {
  page: Page;
  context: BrowserContext;
  /** Console errors, uncaught page errors and CSP violations, in order of arrival. */
  consoleErrors: string[];
  /** Throws listing every recorded error that matches none of `allow`. */
  expectNoConsoleErrors(options?: { allow?: RegExp[] }): void;
  close(): Promise<void>;
};

export type NewPageOptions = {
  baseURL: string;
  viewport?: Viewport;
  /** Emulates the user's motion preference; "reduce" makes CSS transitions instant. */
  reducedMotion?: "reduce" | "no-preference";
  /** The browser's time zone (IANA), for a user somewhere else than the machine. */
  timezoneId?: string;
};

/** A page in its own context (own cookies and localStorage), recording console errors. */
export async function newPage(browser: Browser, options: NewPageOptions): Promise<TestPage> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.viewport ?? viewports.desktop,
    reducedMotion: options.reducedMotion ?? "no-preference",
    timezoneId: options.timezoneId,
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];

  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // Failed requests are reported with the page's URL as text but the resource's as location.
    const { url } = message.location();
    consoleErrors.push(url ? `${message.text()} (${url})` : message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(`Uncaught ${error.name}: ${error.message}`));

  return {
    page,
    context,
    consoleErrors,
    expectNoConsoleErrors({ allow = [] } = {}) {
      const unexpected = consoleErrors.filter((text) => !allow.some((pattern) => pattern.test(text)));
      if (unexpected.length > 0) {
        throw new Error(`Unexpected console errors:\n${unexpected.map((text) => `  - ${text}`).join("\n")}`);
      }
    },
    close: () => context.close(),
  };
}

/** Saves a full-page PNG as test-output/screenshots/<name>-<viewport width>.png and returns its path. */
export async function takeScreenshot(page: Page, name: string): Promise<string> {
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(screenshotDir, `${name.replace(/[^\w.-]+/g, "-")}-${width}.png`);
  await mkdir(screenshotDir, { recursive: true });
  await screenshotWholePage(page, file);
  return file;
}

/**
 * A PNG of the whole page, taken in a viewport as tall as the page and then put back. Not
 * Playwright's `fullPage`: for a page taller than the viewport it asks Chromium to capture beyond
 * the viewport, and Chromium then shows the page a 1x1 window for a moment (seen under load: a
 * `resize` to 1x1, `(min-width: 640px)` false). The page lays out for a phone in that moment; a
 * dialog opened from a table row was unmounted with its row, and browser tests failed by chance
 * (the admin's quota dialog, in CI several times). Only the height changes here.
 */
export async function screenshotWholePage(page: Page, file: string): Promise<void> {
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => Math.ceil(Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0)));
  if (!viewport || height <= viewport.height) {
    await page.screenshot({ path: file });
    return;
  }
  await page.setViewportSize({ width: viewport.width, height });
  try {
    await page.screenshot({ path: file });
  } finally {
    await page.setViewportSize(viewport);
  }
}

/** Runs `steps`; if they throw, saves a screenshot named `<name>-failed` before rethrowing. */
export async function screenshotOnFailure<T>(page: Page, name: string, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    const file = await takeScreenshot(page, `${name}-failed`).catch(() => undefined);
    if (file && error instanceof Error) error.message += `\nScreenshot: ${file}`;
    throw error;
  }
}

/**
 * Focuses `button` and presses Enter on it, returning the file chooser it opens: the keyboard's
 * way to a file picker. Playwright turns on Chromium's file-chooser interception when the first
 * listener is added, and once in a CI run the Enter went out before that had taken effect (the
 * chooser never reported). So the listener is in place before the focus, and if no chooser comes
 * within 5 s the focus is checked and Enter pressed once more; a button that never opens a picker
 * still fails, with what had the focus in the message.
 */
export async function openFileChooserByKey(page: Page, button: Locator): Promise<FileChooser> {
  const chosen: FileChooser[] = [];
  const listener = (chooser: FileChooser) => chosen.push(chooser);
  page.on("filechooser", listener);
  try {
    for (let attempt = 1; ; attempt++) {
      await button.focus();
      await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press("Enter");
      try {
        await expect.poll(() => chosen.length, { timeout: 5_000 }).toBeGreaterThan(0);
        return chosen[0]!;
      } catch (error) {
        if (attempt === 2) {
          const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? "nothing");
          throw new Error(`Enter on the button opened no file chooser (focus on: ${focused})`, { cause: error });
        }
      }
    }
  } finally {
    page.off("filechooser", listener);
  }
}

/** How many CSS pixels the page is wider than the viewport (0 when nothing overflows). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export type A11yViolation = {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  /** One line per offending element: its selector and what is wrong. */
  nodes: string[];
};

export type CheckA11yOptions = {
  /** Limit the check to these CSS selectors (default: the whole document). */
  include?: string[];
  exclude?: string[];
};

type AxeWindow = { axe: typeof AxeCore };

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | undefined;

const axeRunOptions: RunOptions = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
  resultTypes: ["violations"],
};

/**
 * Runs axe-core in the page and returns its serious and critical violations.
 * axe is evaluated through the DevTools protocol, which the app's CSP (no inline
 * scripts) does not block, unlike a <script> tag added to the page.
 */
export async function checkA11y(page: Page, options: CheckA11yOptions = {}): Promise<A11yViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) {
    axeSource ??= readFile(require.resolve("axe-core/axe.min.js"), "utf8");
    await page.evaluate(await axeSource);
  }
  await settleAnimations(page);

  const context: ElementContext = { include: options.include ?? ["html"], exclude: options.exclude ?? [] };
  // Passed as JSON: Playwright's serializable-argument type is too deep for axe's option types.
  const violations: Result[] = await page.evaluate(
    async (json) => {
      const { ctx, opts } = JSON.parse(json) as { ctx: ElementContext; opts: RunOptions };
      const results = await (window as unknown as AxeWindow).axe.run(ctx, opts);
      return results.violations;
    },
    JSON.stringify({ ctx: context, opts: axeRunOptions }),
  );
  return violations.filter(isSeriousOrCritical).map(toA11yViolation);
}

/** A readable report of violations, for assertion messages. */
export function formatViolations(violations: A11yViolation[]): string {
  return violations.map((v) => [`[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`, ...v.nodes.map((n) => `    ${n}`)].join("\n")).join("\n");
}

function isSeriousOrCritical(result: Result): boolean {
  return result.impact === "serious" || result.impact === "critical";
}

function toA11yViolation(result: Result): A11yViolation {
  return {
    id: result.id,
    impact: result.impact ?? "unknown",
    help: result.help,
    helpUrl: result.helpUrl,
    nodes: result.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary?.replace(/\s+/g, " ") ?? ""}`),
  };
}

/** Waits for finite CSS animations and transitions, so colour checks see final opacity. */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * At 1280 and then 390 px: no serious axe violation (toasts left out: they come and go), no
 * sideways scrolling, and a screenshot of each; the page is left at 1280 px.
 */
export async function expectAccessibleAtBothWidths(page: Page, name: string, include?: string[]): Promise<void> {
  for (const viewport of [viewports.desktop, viewports.mobile]) {
    await page.setViewportSize(viewport);
    const violations = await checkA11y(page, { include, exclude: ["[data-sonner-toaster]"] });
    if (violations.length > 0) throw new Error(`${name} at ${viewport.width}px: ${formatViolations(violations)}`);
    const overflow = await horizontalOverflow(page);
    if (overflow !== 0) throw new Error(`${name} overflows by ${overflow}px at ${viewport.width}px`);
    await takeScreenshot(page, name);
  }
  await page.setViewportSize(viewports.desktop);
}

/**
 * At 1280 and then 390 px: no serious axe violation (toasts left out), no heading-order skip, no
 * sideways scrolling, and a screenshot of each; the page is left at `end`. The pages of one flow
 * (organizers, signatures) check this at every step.
 */
export async function expectAccessibleWithHeadings(page: Page, name: string, end: keyof typeof viewports = "desktop"): Promise<void> {
  for (const viewport of [viewports.desktop, viewports.mobile]) {
    await page.setViewportSize(viewport);
    const violations = await checkA11y(page, { exclude: ["[data-sonner-toaster]"] });
    expect(violations, `${name} at ${viewport.width}px:\n${formatViolations(violations)}`).toEqual([]);
    expect(await headingOrderSkips(page), `${name} at ${viewport.width}px`).toEqual([]);
    expect(await horizontalOverflow(page), `${name} at ${viewport.width}px`).toBe(0);
    await takeScreenshot(page, name);
  }
  await page.setViewportSize(viewports[end]);
}

/**
 * axe's heading-order rule is "moderate", under checkA11y's bar: this says where a page's shown
 * headings skip a level going down (an h2 followed by an h4), or [] when none does.
 */
export function headingOrderSkips(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = [...document.querySelectorAll<HTMLElement>("h1, h2, h3, h4, h5, h6")].filter((h) => h.getClientRects().length > 0);
    const skips: string[] = [];
    shown.forEach((heading, i) => {
      const previous = shown[i - 1];
      const level = Number(heading.tagName[1]);
      if (previous && level > Number(previous.tagName[1]) + 1)
        skips.push(`${previous.tagName} "${previous.textContent}" then ${heading.tagName} "${heading.textContent}"`);
    });
    return skips;
  });
}
