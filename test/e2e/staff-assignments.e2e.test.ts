/*
 * Assigned accounts (issue 33, part 2) in Chromium against the real server, database and a test SMTP
 * server: the owner invites a preparer with the documents and messages rights on assigned clients
 * only, the preparer accepts and enrols an authenticator app, the owner assigns one client's account
 * on its client page; the preparer then sees that client and no other (Users, Messages, Documents),
 * cannot open the Site tab, and answers the client's message; the owner deactivates the preparer,
 * whose open page is signed out at its next request. axe, and screenshots at 390 and 1280 px.
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

describe("staff assignments", () => {
  it("a preparer on assigned clients only sees the one account assigned, answers it, and is signed out when deactivated", async ({ login }) => {
    const client = await createUser(server.db, { name: "Greta Lindqvist" });
    const clientApi = await loginClient(server.url, client);
    expect((await clientApi.post("/api/messages", { text: "Is my W-2 enough for the return?" })).status).toBe(201);
    const other = await createUser(server.db, { name: "Hugo Marchetti" });
    const otherApi = await loginClient(server.url, other);
    expect((await otherApi.post("/api/messages", { text: "My 1099-B is attached." })).status).toBe(201);

    const ownerPage = await login(owner, "admin", { viewport: viewports.desktop, reducedMotion: "reduce" });
    const { page } = ownerPage;
    page.setDefaultTimeout(15_000);
    const email = "pat.preparer@example.com";
    await invitePreparer(page, email, { allClients: false, shots: "assign" });
    const preparer = await acceptStaffInvitation({ browser, server, smtp }, email, "assign");
    const p = preparer.page;

    await screenshotOnFailure(p, "assign-nobody", async () => {
      // Nothing assigned yet: no client at all.
      await p.getByRole("tab", { name: /^Messages/ }).click();
      await p.getByText("No messages yet.").waitFor();
      expect(await p.getByRole("button", { name: /^Greta Lindqvist/ }).count()).toBe(0);
      expect(await p.getByRole("button", { name: /^Hugo Marchetti/ }).count()).toBe(0);
    });

    await screenshotOnFailure(page, "assign-client-page", async () => {
      await page.goto(`/admin/users/${client.id}`);
      const assigned = page.getByRole("region", { name: "Assigned to" });
      await assigned.getByText(/Nobody yet/).waitFor();
      await assigned.getByRole("button", { name: "Change assignees" }).click();
      const dialog = page.getByRole("dialog", { name: "Assignees of Greta Lindqvist" });
      await dialog.getByLabel(/Pat Preparer/).check();
      await expectAccessibleAtBothWidths(page, "assign-dialog", ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Save" }).click();
      await toast(page, "Assignees of Greta Lindqvist saved.").waitFor();
      await assigned.getByText("Pat Preparer").waitFor();
      await expectAccessibleAtBothWidths(page, "assign-client-page");
    });

    await screenshotOnFailure(p, "assign-preparer", async () => {
      await p.reload();
      await p.getByRole("tab", { name: /^Messages/ }).waitFor();
      const tabs = await p.getByRole("tab").allInnerTexts();
      expect(tabs.map((t) => t.replace(/\s*\d+$/, "").trim())).toEqual(["Overview", "Inbox", "Messages", "Clients", "Documents", "Account"]);
      await p.goto("/admin/dashboard?tab=site");
      await p.getByRole("tab", { name: "Overview", selected: true }).waitFor();
      expect(await p.getByRole("tab", { name: "Site" }).count()).toBe(0);

      await p.getByRole("tab", { name: "Clients" }).click();
      await p.getByText("Greta Lindqvist").first().waitFor();
      expect(await p.getByText("Hugo Marchetti").count()).toBe(0);
      await expectAccessibleAtBothWidths(p, "assign-preparer-users");

      // The other client's page opens nothing of it, and says it is not assigned to her and who can change that.
      await p.goto(`/admin/users/${other.id}`);
      await p.getByRole("heading", { name: "This client is not assigned to you" }).waitFor();
      await p.getByText("ask Olivia Owner (the owner) to assign it to you", { exact: false }).waitFor();
      expect(await p.getByText("Hugo Marchetti").count()).toBe(0);
      await p.goto("/admin/dashboard?tab=messages");
      await p.getByRole("button", { name: /^Greta Lindqvist/ }).click();
      expect(await p.getByRole("button", { name: /^Hugo Marchetti/ }).count()).toBe(0);
      await p.getByRole("article", { name: "Message from Greta Lindqvist" }).getByText("Is my W-2 enough for the return?").waitFor();
      await p.getByLabel("Message", { exact: true }).fill("Yes, the W-2 is all we need.");
      await p.getByRole("button", { name: "Send", exact: true }).click();
      await p.getByRole("article", { name: "Message from You" }).getByText("Yes, the W-2 is all we need.").waitFor();
      await expectAccessibleAtBothWidths(p, "assign-preparer-messages");
    });
    const thread = (await clientApi.get("/api/messages")).text;
    expect(thread).toContain("Yes, the W-2 is all we need.");
    expect(thread).toContain("Pat Preparer");

    await screenshotOnFailure(page, "assign-deactivate", async () => {
      await page.goto("/admin/dashboard?tab=team");
      await page.getByRole("button", { name: "Deactivate Pat Preparer" }).click();
      expect(await page.getByRole("list", { name: "Team invitations" }).count()).toBe(0);
      await page.getByRole("alertdialog").getByRole("button", { name: "Deactivate" }).click();
      await toast(page, "Pat Preparer is deactivated.").waitFor();
      await page.getByRole("list", { name: "Team members" }).getByText("Deactivated").waitFor();
      await expectAccessibleAtBothWidths(page, "assign-team-deactivated");
    });

    await screenshotOnFailure(p, "assign-signed-out", async () => {
      await p.getByRole("tab", { name: "Documents" }).click();
      await p.waitForURL((url) => url.pathname === "/admin");
      await p.getByText("Your session has ended. Please sign in again.").waitFor();
      await takeScreenshot(p, "assign-signed-out");
    });
    ownerPage.expectNoConsoleErrors();
    preparer.expectNoConsoleErrors({ allow: [/status of 401/, /status of 404/] });
    await preparer.close();
  }, 180_000);
});
