/*
 * `it` for a browser test file whose tests sign in (the Epic Stack's `test.extend({ login })`):
 * a test asks for `login` and calls `login(user, portal, pageOptions)` for a page already signed in
 * (signedInPage, the one sign-in set-up); the pages it opened are closed when the test ends,
 * passed or failed. The file still starts its own server and browser in beforeAll and says where
 * they are:
 *
 *   const it = browserTest(() => ({ browser, baseUrl: server.url }));
 *   it("...", async ({ login }) => { const { page } = await login(admin, "admin", { viewport }); ... });
 */
import type { Browser } from "playwright-core";
import { it as base } from "vitest";
import { type SignInAs, signedInPage } from "./admin-sign-in.ts";
import type { TestPage } from "./browser.ts";

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
