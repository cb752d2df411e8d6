/*
 * `it` for a browser test file whose tests sign in (the Epic Stack's `test.extend({ login })`):
 * a test asks for `login` and calls `login(user, portal, pageOptions)` for a page already signed in
 * (signedInPage, the one sign-in set-up); the pages it opened are closed when the test ends,
 * passed or failed. The file still starts its own server, takes the shared browser in beforeAll and says
 * where they are:
 *
 *   const it = browserTest(() => ({ browser, baseUrl: server.url }));
 *   it("...", async ({ login }) => { const { page } = await login(admin, "admin", { viewport }); ... });
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, it as base } from "vitest";
import { type SignInAs, signedInPage } from "./admin-sign-in.ts";
import { releaseBrowser, sharedBrowser, type TestPage } from "./browser.ts";
import { startTestServer, type TestServer } from "./server.ts";

export type Login = (user: SignInAs, portal: "client" | "admin", options?: Parameters<typeof signedInPage>[4]) => Promise<TestPage>;

export function browserTest(where: () => { browser: Browser; baseUrl: string }) {
  return base.extend<{ login: Login }>({
    // Vitest reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    login: async ({}, use) => {
      const opened: TestPage[] = [];
      await use(async (user, portal, options = {}) => {
        const { browser, baseUrl } = where();
        const t = await signedInPage(browser, baseUrl, user, portal, options);
        opened.push(t);
        return t;
      });
      await Promise.all(opened.map((t) => t.close()));
    },
  });
}

type BrowserTestFileOptions = {
  /** The server's options, read when it starts (so they may name what an earlier beforeAll started, an SMTP server). */
  server?: () => Parameters<typeof startTestServer>[0];
  /** Where the server's clock stands from the start. */
  now?: Date;
  /** The file's own set-up, once the server and the browser are up, in the same beforeAll. */
  setUp?: (server: TestServer) => Promise<void>;
};

/**
 * The frame most browser test files share: in beforeAll a test server (its clock at `now`) and the
 * worker's Chromium (sharedBrowser), then `setUp(server)`; in afterAll the server closed and the browser handed back; and the file's `it` (browserTest). A file
 * keeps the server it is handed in setUp for its tests:
 *
 *   let server: TestServer;
 *   const it = browserTestFile({ setUp: async (started) => { server = started; ... } });
 */
export function browserTestFile({ server: serverOptions, now, setUp }: BrowserTestFileOptions = {}) {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startTestServer(serverOptions?.());
    if (now) server.clock.set(now);
    browser = await sharedBrowser();
    await setUp?.(server);
  }, 120_000);
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.close();
  });
  return browserTest(() => ({ browser: browser!, baseUrl: server!.url }));
}
