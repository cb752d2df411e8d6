/*
 * Issue 37's retention and disposal in Chromium: the Site tab's Retention area, where the firm saves
 * its rules, reads what the portal deletes in the next 30 days (an account's trashed document), places
 * a legal hold from that list with a reason, and lifts it after a confirmation. Passes axe, without
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
let clientUser: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    owner = await createStaffMember(server.db, "owner", [], { name: "Dana Whitfield" });
    clientUser = await createUser(server.db, { name: "Greta Lindqvist", username: `greta_${randomBytes(3).toString("hex")}` });
    const api = await loginClient(server.url, clientUser);
    for (const name of ["old-w2.pdf", "draft.pdf"]) {
      const form = new FormData();
      form.append("file", new Blob([randomBytes(40_000)]), name);
      const res = await api.request("POST", "/api/documents/upload", { body: form });
      expect(res.status).toBe(201);
      expect((await api.delete(`/api/documents/${(res.body as { id: string }).id}`)).status).toBe(200);
    }
  },
});

describe("retention in the browser", () => {
  it("the owner saves the rules, sees what is due, places a hold from the list and lifts it", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(owner, "admin");
    await screenshotOnFailure(page, "retention", async () => {
      await page.goto("/admin/dashboard?tab=site&area=retention");
      const rules = page.locator("section:has(#retention-rules-heading)");
      const years = rules.getByLabel("Years kept after an account's last activity");
      await years.waitFor();
      expect(await years.inputValue()).toBe("7");
      await years.fill("6");
      await rules.getByRole("button", { name: "Save rules" }).click();
      await page.locator("[data-sonner-toast]", { hasText: "kept 6 years" }).first().waitFor();
      expect((await server.db.selectFrom("firm_settings").select("value").where("key", "=", "retention_years").executeTakeFirst())?.value).toBe("6");

      const due = page.locator("section:has(#disposal-due-heading)");
      await due.getByText(clientUser.username!).first().waitFor();
      await expectAccessibleAtBothWidths(page, "retention-area");

      await page.setViewportSize({ width: 1280, height: 800 });
      await due.getByRole("button", { name: `Hold ${clientUser.username}` }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Place hold" }).click();
      await dialog.getByText("Say why the account is held").waitFor();
      await dialog.getByLabel("Reason").fill("IRS examination of 2023");
      await dialog.getByRole("button", { name: "Place hold" }).click();
      await dialog.waitFor({ state: "detached" });
      const holds = due.getByRole("list", { name: "Legal holds" });
      await holds.getByText("IRS examination of 2023").waitFor();
      await due.getByText("On hold").waitFor();
      expect(await server.db.selectFrom("legal_holds").select("reason").where("account_id", "=", clientUser.id).executeTakeFirst()).toEqual({
        reason: "IRS examination of 2023",
      });
      await expectAccessibleAtBothWidths(page, "retention-area-held");

      await page.setViewportSize({ width: 1280, height: 800 });
      await holds.getByRole("button", { name: `Lift hold on ${clientUser.username}` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Lift hold" }).click();
      await due.getByText("No account is on hold.").waitFor();
      expect(await server.db.selectFrom("legal_holds").select("reason").where("account_id", "=", clientUser.id).executeTakeFirst()).toBeUndefined();
    });
    expectNoConsoleErrors();
  });

  it("the firm places a legal hold from the client record", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(owner, "admin");
    await screenshotOnFailure(page, "retention-account-hold", async () => {
      await page.goto(`/admin/accounts/${clientUser.id}`);
      const card = page.locator("section:has(#account-legal-hold-heading)");
      await card.getByText("Not on hold.").waitFor();
      await card.getByRole("button", { name: `Place legal hold ${clientUser.username}` }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Reason").fill("Malpractice claim, matter 88");
      await dialog.getByRole("button", { name: "Place hold" }).click();
      await dialog.waitFor({ state: "detached" });
      await card.getByText("On hold: Malpractice claim, matter 88").waitFor();
      await card.scrollIntoViewIfNeeded();
      await expectAccessibleAtBothWidths(page, "retention-account-hold");
      expect((await server.db.selectFrom("legal_holds").select("reason").where("account_id", "=", clientUser.id).executeTakeFirst())?.reason).toBe(
        "Malpractice claim, matter 88",
      );
    });
    expectNoConsoleErrors();
  });
});
