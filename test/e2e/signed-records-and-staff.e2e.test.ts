/*
 * Issue 47 items 2, 6 and 7 in Chromium: the firm sees an account its last person's deletion left
 * standing for its signed records, with the day they are released (the Clients tab, the account's
 * People section, the Retention area); a staff member without the documents right gets an Overview
 * without recent documents; and one of the firm's people signed in at the client portal is told the
 * firm's people have no client account, with the way to the admin portal. Passes axe, without
 * overflow, at 1280 and 390 px (screenshots in test-output/screenshots).
 */
import { randomBytes } from "node:crypto";
import { describe, expect } from "vitest";
import { expectAccessibleAtBothWidths, screenshotOnFailure } from "../helpers/browser.ts";
import { browserTestFile } from "../helpers/browser-test.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: UserFixture;
let keptName: string;
let keptId: string;
let releasedOn: Date;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    owner = await createStaffMember(server.db, "owner", [], { name: "Dana Whitfield" });
    // A client whose signed record is locked for three more years (as a seal leaves it), then deleted by the firm.
    keptName = `sam_sealed_${randomBytes(3).toString("hex")}`;
    const sam = await createUser(server.db, { name: "Sam Sealed", username: keptName });
    const form = new FormData();
    form.append("file", new Blob([randomBytes(2_000)], { type: "application/pdf" }), "8879-signed.pdf");
    const uploaded = await (await loginClient(server.url, sam)).request("POST", "/api/documents/upload", { body: form });
    expect(uploaded.status).toBe(201);
    releasedOn = new Date();
    releasedOn.setUTCFullYear(releasedOn.getUTCFullYear() + 3);
    await server.db
      .updateTable("documents")
      .set({ retained_until: releasedOn })
      .where("id", "=", (uploaded.body as { id: string }).id)
      .execute();
    keptId = sam.id;
    expect((await (await loginClient(server.url, owner, "admin")).delete(`/api/admin/users/${sam.id}`)).status).toBe(200);
  },
});

describe("signed records and the firm's people", () => {
  it("the firm sees the account kept for its signed records, and until when", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(owner, "admin");
    page.setDefaultTimeout(15_000);
    await screenshotOnFailure(page, "kept-account", async () => {
      await page.goto("/admin/dashboard?tab=users");
      const row = page.getByRole("row").filter({ hasText: keptName });
      await row.getByText("No people · signed records kept until").waitFor();
      await expectAccessibleAtBothWidths(page, "kept-account-clients");

      await page.goto(`/admin/accounts/${keptId}`);
      await page.getByText(/Its signed records are kept until/).waitFor();
      await expectAccessibleAtBothWidths(page, "kept-account-people");

      await page.goto("/admin/dashboard?tab=site&area=retention");
      const kept = page.getByRole("list", { name: "Kept for signed records" });
      await kept.getByRole("link", { name: keptName }).waitFor();
      expect(await kept.getByRole("listitem").filter({ hasText: keptName }).innerText()).toMatch(
        new RegExp(`Kept until \\w+ \\d+, ${releasedOn.getUTCFullYear()}`),
      );
      await expectAccessibleAtBothWidths(page, "kept-account-retention");
    });
    expectNoConsoleErrors();
  });

  it("a staff member without the documents right gets an Overview without recent documents", async ({ login }) => {
    const staff = await createStaffMember(server.db, "staff", ["messages"], { name: "Mo Messages" });
    const { page, expectNoConsoleErrors } = await login(staff, "admin");
    await screenshotOnFailure(page, "overview-no-documents", async () => {
      await page.goto("/admin/dashboard");
      await page.getByRole("heading", { name: "Recent users" }).waitFor();
      expect(await page.getByRole("heading", { name: "Recent documents" }).count()).toBe(0);
      expect(await page.getByText("8879-signed.pdf").count()).toBe(0);
      await expectAccessibleAtBothWidths(page, "overview-no-documents");
    });
    expectNoConsoleErrors();
  });

  it("one of the firm's people at the client portal is told they have no client account, and where to go", async ({ login }) => {
    const staff = await createStaffMember(server.db, "staff", ["documents"], { name: "Pat Preparer" });
    // As an accepted staff invitation now leaves them: in no client account.
    await server.db.deleteFrom("accounts").where("id", "=", staff.id).execute();
    const { page, expectNoConsoleErrors } = await login(staff, "client");
    await screenshotOnFailure(page, "staff-at-client-portal", async () => {
      await page.goto("/dashboard");
      await page.getByRole("heading", { level: 1, name: "No client account is open for you" }).waitFor();
      await page.getByText("the firm's people have no client account").waitFor();
      expect(await page.getByRole("link", { name: "admin portal" }).getAttribute("href")).toBe("/admin");
      await expectAccessibleAtBothWidths(page, "staff-at-client-portal");
    });
    // The message stream is opened with the page, before it knows there is no account: refused as every client path is.
    expectNoConsoleErrors({ allow: [/status of 403 \(Forbidden\) \(http:\/\/[^)]+\/api\/messages\/events\)/] });
  });
});
