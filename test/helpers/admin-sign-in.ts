// Signing in as an account with two-factor sign-in (every admin made by createUser) from the
// browser tests: through the API in a page's context (its cookies), or through the pages as a
// person would. The code is computed from the fixture's key on the server's clock
// (nextSecondFactorCode), so sign-ins in one test never reuse a code. For HTTP tests, use
// loginClient(url, admin, "admin") from factories.ts, which does the same.
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { type NewPageOptions, newPage, type TestPage } from "./browser.ts";
import { nextSecondFactorCode, type UserFixture } from "./factories.ts";

/** Who signs in: a fixture, or an account made otherwise with its second factor filled in by the test. */
export type SignInAs = Pick<UserFixture, "username" | "password" | "secondFactor">;
import { clockOf } from "./server.ts";

/**
 * Signs `user` in with `request` (a page's `page.request`, sharing its cookies): the login, then
 * the second step when it asks for one. Throws unless both answer 200.
 */
export async function signInWithRequest(
  request: APIRequestContext,
  baseUrl: string,
  user: SignInAs,
  portal: "client" | "admin" = "admin",
): Promise<void> {
  const headers = { Origin: baseUrl };
  const login = await request.post(portal === "admin" ? "/api/admin/login" : "/api/auth/login", {
    data: { username: user.username, password: user.password },
    headers,
  });
  if (login.status() !== 200) throw new Error(`login as ${user.username} failed: ${login.status()} ${await login.text()}`);
  const body = (await login.json()) as { two_factor_required?: boolean; two_factor_setup_required?: boolean; challenge?: string };
  if (body.two_factor_setup_required) throw new Error(`${user.username} must enrol a second factor first`);
  if (!body.two_factor_required) return;
  const second = await request.post("/api/auth/login/2fa", {
    data: { challenge: body.challenge, code: nextSecondFactorCode(user, clockOf(baseUrl)?.now()) },
    headers,
  });
  if (second.status() !== 200) throw new Error(`second step as ${user.username} failed: ${second.status()} ${await second.text()}`);
}

/** Types the code into the sign-in's second step (either portal) and submits it. */
export async function enterSecondFactorCode(page: Page, user: SignInAs, baseUrl: string): Promise<void> {
  await page.getByLabel("Authentication code").fill(nextSecondFactorCode(user, clockOf(baseUrl)?.now()));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

/** /admin as the admin uses it: username and password, then the code; resolves on the dashboard. */
export async function signInAsAdminThroughUi(page: Page, admin: SignInAs, baseUrl: string): Promise<void> {
  await page.goto("/admin");
  await page.getByLabel("Username").fill(admin.username!);
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await enterSecondFactorCode(page, admin, baseUrl);
  await page.waitForURL(/\/admin\/dashboard/);
}

/**
 * The browser tests' one sign-in set-up (test/helpers/browser-test.ts gives it to a test as `login`):
 * a new page (own context, `newPage`'s options) already signed in as `user` through the API in the
 * page's own cookies (signInWithRequest). With `clock`, the page's own clock is fixed at that time
 * (so "today" and "this week" are the server's, when the test moved the server's clock).
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  user: SignInAs,
  portal: "client" | "admin",
  options: Omit<NewPageOptions, "baseURL"> & { clock?: Date } = {},
): Promise<TestPage> {
  const { clock, ...pageOptions } = options;
  const t = await newPage(browser, { baseURL: baseUrl, ...pageOptions });
  try {
    await signInWithRequest(t.page.request, baseUrl, user, portal);
    if (clock) await t.page.clock.setFixedTime(clock);
  } catch (error) {
    await t.close();
    throw error;
  }
  return t;
}
