/*
 * The firm as a team (issue 33) in Chromium against the real server, database and a test SMTP
 * server: the owner invites a preparer with the documents and messages rights from the Team tab,
 * the preparer accepts the emailed link (choosing a password, then enrolling an authenticator app)
 * and lands in the admin portal, which offers no Site or Team tab, and answers a client's message;
 * the owner deactivates the preparer, whose open page is signed out at its next request.
 * axe, and screenshots at 390 and 1280 px.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTest } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, releaseBrowser, screenshotOnFailure, sharedBrowser, takeScreenshot, viewports } from "../helpers/browser.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { acceptStaffInvitation, invitePreparer, toast } from "../helpers/staff-browser.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let browser: Browser;
let owner: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  owner = await createStaffMember(server.db, "owner", [], { name: "Olivia Owner" });
  browser = await sharedBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await smtp?.stop();
});

const it = browserTest(() => ({ browser, baseUrl: server.url }));

describe("staff", () => {
  it("the owner invites a preparer, who enrols, sees only their tabs, answers a client, and is signed out when deactivated", async ({ login }) => {
    const client = await createUser(server.db, { name: "Greta Lindqvist" });
    const clientApi = await loginClient(server.url, client);
    expect((await clientApi.post("/api/messages", { text: "Is my W-2 enough for the return?" })).status).toBe(201);

    const ownerPage = await login(owner, "admin", { viewport: viewports.desktop, reducedMotion: "reduce" });
    const { page } = ownerPage;
    page.setDefaultTimeout(15_000);
    const email = "pat.preparer@example.com";
    // Every client: reaching only assigned ones is staff-assignments.e2e.test.ts's story.
    await invitePreparer(page, email, { allClients: true, shots: "staff" });
    const preparer = await acceptStaffInvitation({ browser, server, smtp }, email, "staff");
    const p = preparer.page;

    await screenshotOnFailure(p, "staff-preparer", async () => {
      const tabs = await p.getByRole("tab").allInnerTexts();
      expect(tabs.map((t) => t.replace(/\s*\d+$/, "").trim())).toEqual(["Overview", "Inbox", "Messages", "Clients", "Documents", "Account"]);
      // A link to a tab they may not use opens the Overview instead, saying why.
      await p.goto("/admin/dashboard?tab=site");
      await p.getByRole("tab", { name: "Overview", selected: true }).waitFor();
      await p.getByText("The link was to Site, which needs one of", { exact: false }).waitFor();
      expect(await p.getByRole("tab", { name: "Site" }).count()).toBe(0);
      await expectAccessibleAtBothWidths(p, "staff-preparer-dashboard");

      await p.getByRole("tab", { name: /^Messages/ }).click();
      await p.getByRole("button", { name: /^Greta Lindqvist/ }).click();
      await p.getByRole("article", { name: "Message from Greta Lindqvist" }).getByText("Is my W-2 enough for the return?").waitFor();
      await p.getByLabel("Message", { exact: true }).fill("Yes, the W-2 is all we need.");
      await p.getByRole("button", { name: "Send", exact: true }).click();
      await p.getByRole("article", { name: "Message from You" }).getByText("Yes, the W-2 is all we need.").waitFor();
      await expectAccessibleAtBothWidths(p, "staff-preparer-messages");
    });
    const thread = (await clientApi.get("/api/messages")).text;
    expect(thread).toContain("Yes, the W-2 is all we need.");
    expect(thread).toContain("Pat Preparer");

    // Who read it, the preparer's assigned client on the Team tab, the access report, and a resent invitation.
    const ownerApi = await loginClient(server.url, owner, "admin");
    const preparerId = ((await ownerApi.get("/api/admin/staff")).body as { id: string; email: string }[]).find((m) => m.email === email)!.id;
    expect((await ownerApi.request("PATCH", `/api/admin/accounts/${client.id}`, { json: { name: "Greta Lindqvist" } })).status).toBe(200);
    expect((await ownerApi.request("PUT", `/api/admin/accounts/${client.id}/assignees`, { json: { user_ids: [preparerId] } })).status).toBe(200);
    const waiting = await ownerApi.post("/api/admin/staff", {
      name: "Wes Waiting",
      email: "wes.waiting@example.com",
      role: "staff",
      rights: ["requests"],
    });
    expect(waiting.status).toBe(201);
    await screenshotOnFailure(page, "staff-team-more", async () => {
      await page.reload();
      await page.getByRole("tab", { name: /^Messages/ }).click();
      await page
        .getByRole("button", { name: /^Greta Lindqvist/ })
        .getByText("Read by Pat Preparer")
        .waitFor();
      await expectAccessibleAtBothWidths(page, "staff-messages-read-by");

      await page.getByRole("tab", { name: "Team" }).click();
      const assigned = page.getByRole("list", { name: "Clients assigned to Pat Preparer" });
      await assigned.getByRole("link", { name: "Greta Lindqvist", exact: true }).waitFor();
      await page.getByText("1 assigned client").waitFor();
      await page.getByRole("button", { name: "Resend invitation to Wes Waiting" }).click();
      await toast(page, "A new invitation is on its way to wes.waiting@example.com").waitFor();
      await expectAccessibleAtBothWidths(page, "staff-team-assigned");

      await assigned.getByRole("link", { name: "Who can see Greta Lindqvist" }).click();
      await page.getByRole("heading", { name: "Access to Greta Lindqvist" }).waitFor();
      const people = page.getByRole("list", { name: "People who can see this account" });
      await people.getByRole("listitem").filter({ hasText: "Pat Preparer" }).getByText("All clients right").waitFor();
      // This story's preparer holds all_clients (see the invitation above), and is assigned too.
      await people.getByRole("listitem").filter({ hasText: "Pat Preparer" }).getByText("Also assigned").waitFor();
      await people.getByRole("listitem").filter({ hasText: "Olivia Owner" }).getByText("Owner: sees every client").waitFor();
      await expectAccessibleAtBothWidths(page, "staff-access-report");
      // And from the account page.
      await page.getByRole("link", { name: "Account", exact: true }).click();
      await page.getByRole("link", { name: "Who can see this account" }).click();
      await page.getByRole("heading", { name: "Access to Greta Lindqvist" }).waitFor();
      await page.goto("/admin/dashboard?tab=team");
    });
    expect((await ownerApi.delete(`/api/admin/staff/invitations/${waiting.body.id}`)).status).toBe(200);

    await screenshotOnFailure(page, "staff-deactivate", async () => {
      await page.reload();
      await page.getByRole("button", { name: "Deactivate Pat Preparer" }).click();
      expect(await page.getByRole("list", { name: "Team invitations" }).count()).toBe(0);
      await page.getByRole("alertdialog").getByRole("button", { name: "Deactivate" }).click();
      await toast(page, "Pat Preparer is deactivated.").waitFor();
      await page.getByRole("list", { name: "Team members" }).getByText("Deactivated").waitFor();
      await expectAccessibleAtBothWidths(page, "staff-team-deactivated");
    });

    await screenshotOnFailure(p, "staff-signed-out", async () => {
      await p.getByRole("tab", { name: "Documents" }).click();
      await p.waitForURL((url) => url.pathname === "/admin");
      await p.getByText("Your session has ended. Please sign in again.").waitFor();
      await takeScreenshot(p, "staff-signed-out");
    });
    ownerPage.expectNoConsoleErrors();
    preparer.expectNoConsoleErrors({ allow: [/status of 401/] });
    await preparer.close();
  }, 90_000);
});
