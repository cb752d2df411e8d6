/*
 * The firm's side of a staff invitation in the browser, shared by the team's browser tests
 * (test/e2e/staff*.e2e.test.ts): the owner invites a preparer from the Team tab, and the preparer
 * accepts the emailed link on a phone, choosing a password and enrolling an authenticator app.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { expectAccessibleAtBothWidths, newPage, screenshotOnFailure, takeScreenshot, type TestPage, viewports } from "./browser.ts";
import type { TestServer } from "./server.ts";
import type { TestSmtpServer } from "./smtp.ts";

const PASSWORD = "Amber-Quay-Ledger-57";
const codeAt = (secret: string, at: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(at), 6);
export const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first();

/** The owner's page invites Pat Preparer with the documents and messages rights (and all_clients when asked). */
export async function invitePreparer(page: Page, email: string, options: { allClients: boolean; shots: string }): Promise<void> {
  await screenshotOnFailure(page, `${options.shots}-invite`, async () => {
    await page.goto("/admin/dashboard?tab=team");
    const team = page.getByRole("list", { name: "Team members" });
    await team.getByText("Olivia Owner").waitFor();
    await expectAccessibleAtBothWidths(page, `${options.shots}-team`);
    await page.getByRole("button", { name: "Invite team member" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite a team member" });
    await dialog.getByLabel("Full Name").fill("Pat Preparer");
    await dialog.getByLabel("Email").fill(email);
    if (options.allClients) await dialog.getByLabel("All clients").check();
    await dialog.getByLabel("Documents").check();
    await dialog.getByLabel("Messages").check();
    await expectAccessibleAtBothWidths(page, `${options.shots}-invite-dialog`, ['[role="dialog"]']);
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await toast(page, `Invitation sent to ${email}.`).waitFor();
    await page.getByRole("list", { name: "Team invitations" }).getByText("Pat Preparer").waitFor();
  });
}

/** The preparer opens the emailed link on a phone, chooses a password, enrols an authenticator and lands in the admin portal. */
export async function acceptStaffInvitation(
  context: { browser: Browser; server: TestServer; smtp: TestSmtpServer },
  email: string,
  shots: string,
): Promise<TestPage> {
  const { browser, server, smtp } = context;
  const mail = await smtp.waitForMail(email, /team/i, 20_000);
  const link = /http:\/\/\S+\/\?invite=[a-z2-7]+/.exec(mail.text)![0];
  const preparer = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile, reducedMotion: "reduce" });
  const p = preparer.page;
  p.setDefaultTimeout(15_000);
  await screenshotOnFailure(p, `${shots}-accept`, async () => {
    await p.goto(link);
    const dialog = p.getByRole("dialog", { name: "Accept your invitation" });
    await dialog.getByLabel("Username").fill("pat_preparer");
    await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await dialog.getByLabel("Confirm Password").fill(PASSWORD);
    // The firm's side signs in with a password and an authenticator: no Google button here.
    expect(await dialog.getByRole("button", { name: "Continue with Google" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Create Account" }).click();
    await p.getByRole("heading", { name: "Set up two-factor sign-in" }).waitFor();
    await takeScreenshot(p, `${shots}-enrol`);
    const secret = (await p.getByTestId("totp-secret").getAttribute("data-secret"))!;
    await p.getByLabel("Code from the app").fill(codeAt(secret, Math.floor(server.clock.now().getTime() / 30_000)));
    await p.getByRole("button", { name: "Turn on and sign in" }).click();
    await p.getByRole("list", { name: "Backup codes" }).waitFor();
    await p.getByRole("button", { name: "Continue" }).click();
    await p.waitForURL(/\/admin\/dashboard/);
    await p.getByRole("tab", { name: /^Messages/ }).waitFor();
  });
  return preparer;
}
