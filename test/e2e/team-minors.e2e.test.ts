/*
 * Issue 48's minor items on the team, in Chromium against the real server, database and a test SMTP
 * server: each right says what it opens where the owner gives it; a staff member is not shown the
 * owner's first-day checklist, and a link to a tab their rights do not open says so, with who gives
 * rights; the staff invitation's accept dialog speaks to a team member, and the focus starts on its
 * first field rather than on Close. axe, no sideways scrolling and screenshots at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, newPage, screenshotOnFailure, viewports } from "../helpers/browser.ts";
import { createStaffMember, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let owner: UserFixture;
let preparer: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

const it = browserTestFile({
  server: () => ({ env: { SMTP_URL: smtp.url } }),
  setUp: async (started) => {
    server = started;
    owner = await createStaffMember(server.db, "owner", [], { name: "Olivia Owner" });
    preparer = await createStaffMember(server.db, "staff", ["documents"], { name: "Pat Preparer" });
  },
});

afterAll(async () => {
  await smtp?.stop();
});

describe("the team's minor items", () => {
  it("each right says what it opens where the owner gives it", async ({ login }) => {
    const { page } = await login(owner, "admin", { viewport: viewports.desktop, reducedMotion: "reduce" });
    page.setDefaultTimeout(15_000);
    await screenshotOnFailure(page, "rights-hints", async () => {
      await page.goto("/admin/dashboard?tab=team");
      await page.getByRole("button", { name: "Invite team member" }).click();
      const dialog = page.getByRole("dialog", { name: "Invite a team member" });
      const allClients = dialog.getByRole("checkbox", { name: "All clients" });
      expect(await allClients.getAttribute("aria-describedby")).toBeTruthy();
      await dialog.getByText("Sees every client. Without it, only the clients assigned to them.").waitFor();
      await dialog.getByText("Invites team members and changes their rights", { exact: false }).waitFor();
      await expectAccessibleAtBothWidths(page, "rights-hints", ['[role="dialog"]']);
    });
  });

  it("a staff member sees no first-day checklist, and a link to a tab they lack says which right and who gives it", async ({ login }) => {
    const t = await login(preparer, "admin", { viewport: viewports.mobile, reducedMotion: "reduce" });
    const { page } = t;
    page.setDefaultTimeout(15_000);
    await screenshotOnFailure(page, "staff-missing-tab", async () => {
      await page.goto("/admin/dashboard?tab=site");
      const notice = page.getByRole("status").filter({ hasText: "The link was to Site" });
      await notice.getByText("one of the “Site content” or “Firm settings” rights", { exact: false }).waitFor();
      await notice.getByText("The firm's owner or an admin gives rights, on the Team tab.", { exact: false }).waitFor();
      expect(await page.getByRole("tab", { name: "Overview", selected: true }).count()).toBe(1);
      await page.getByText("Total documents").waitFor();
      expect(await page.getByRole("heading", { name: "First-day checklist" }).count()).toBe(0);
      await expectAccessibleAtBothWidths(page, "staff-missing-tab");
    });
    t.expectNoConsoleErrors();
  });

  it("the staff invitation speaks to a team member, and its accept dialog starts on its first field", async ({ login }) => {
    const ownerApi = await loginClient(server.url, owner, "admin");
    const email = "quinn.team@example.com";
    expect((await ownerApi.post("/api/admin/staff", { name: "Quinn Team", email, role: "staff", rights: ["documents", "messages"] })).status).toBe(
      201,
    );
    const mail = await smtp.waitForMail(email, /team/i, 20_000);
    expect(mail.text).toContain("you work on the firm's side");
    expect(mail.text).toContain("You join as staff, with these rights: documents, messages.");
    const link = /http:\/\/\S+\/\?invite=[a-z2-7]+/.exec(mail.text)![0];

    const ownerPage = await login(owner, "admin", { viewport: viewports.desktop });
    const m = await newPage(ownerPage.context.browser()!, { baseURL: server.url, viewport: viewports.mobile, reducedMotion: "reduce" });
    m.page.setDefaultTimeout(15_000);
    await screenshotOnFailure(m.page, "staff-accept-dialog", async () => {
      await m.page.goto(link);
      const dialog = m.page.getByRole("dialog", { name: "Accept your invitation" });
      await dialog.getByText("You are invited to the firm's team.", { exact: false }).waitFor();
      expect(await dialog.getByText("client portal account").count()).toBe(0);
      await expect.poll(() => m.page.evaluate(() => document.activeElement?.getAttribute("autocomplete"))).toBe("username");
      await expectAccessibleAtBothWidths(m.page, "staff-accept-dialog", ['[role="dialog"]']);
    });
    m.expectNoConsoleErrors();
    await m.close();
  });
});
