/*
 * The firm's pickers list client accounts, not persons (issue 48; docs/decisions.md, "The firm's
 * paths take the account"): a household of two is one choice, "Garcia household", with its people
 * beneath, in the new document request's picker and in the organizers' bulk send; the request goes
 * to the account. Axe at 1280 and 390 px on the dialog and the bulk send.
 */
import { expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, screenshotOnFailure, viewports } from "../helpers/browser.ts";
import { createUser, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let firmUser: UserFixture;
let maria: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    maria = await createUser(server.db, { name: "Maria Garcia" });
    const jose = await createUser(server.db, { name: "Jose Garcia" });
    await makeHousehold(server.db, { owner: maria, member: jose, name: "Garcia household", verifiedAt: new Date() });
  },
});

it("a new document request picks the household account, its people beneath, and goes to the account", async ({ login }) => {
  const { page } = await login(firmUser, "admin", { viewport: viewports.desktop, reducedMotion: "reduce" });
  await screenshotOnFailure(page, "request-picker-accounts", async () => {
    await page.goto("/admin/dashboard?tab=requests");
    await page.getByRole("button", { name: "New request" }).click();
    const dialog = page.getByRole("dialog", { name: "New document request" });
    await dialog.getByLabel("Search clients by account name, person or email").fill("Garcia");
    const accounts = dialog.getByRole("list", { name: "Client accounts" });
    await accounts.getByText("Garcia household").waitFor();
    // One choice for the two people: the account (once the search has answered).
    await expect.poll(() => accounts.getByRole("radio").count()).toBe(1);
    await accounts.getByText("Maria Garcia, Jose Garcia").waitFor();
    await accounts.getByRole("radio", { name: /Garcia household/ }).check();
    await dialog.getByText("Selected: Garcia household (Maria Garcia, Jose Garcia)").waitFor();
    await dialog.getByLabel("What do you need?").fill("2026 W-2s");
    await expectAccessibleAtBothWidths(page, "request-picker-accounts", ['[role="dialog"]']);
    await dialog.getByRole("button", { name: "Send request" }).click();
    await dialog.waitFor({ state: "detached" });
    const sent = await server.db.selectFrom("document_requests").select("account_id").where("title", "=", "2026 W-2s").execute();
    expect(sent).toEqual([{ account_id: maria.id }]);
  });
});

it("the organizers' bulk send names each account's people beneath it", async ({ login }) => {
  const { page } = await login(firmUser, "admin", { viewport: viewports.desktop, reducedMotion: "reduce" });
  await screenshotOnFailure(page, "organizer-picker-accounts", async () => {
    await page.goto(`/admin/accounts/${maria.id}?section=organizers`);
    await page.getByRole("button", { name: "Copy the Individual tax organizer" }).click();
    await page.locator("[data-sonner-toast]", { hasText: "copied to your templates" }).first().waitFor();
    await page.goto("/admin/dashboard?tab=organizers");
    await page.getByLabel("Search client accounts").fill("Garcia");
    const accounts = page.getByRole("list", { name: "Client accounts" });
    await accounts.getByText("Maria Garcia, Jose Garcia").waitFor();
    await expect.poll(() => accounts.getByRole("checkbox").count()).toBe(1);
    await expectAccessibleAtBothWidths(page, "organizer-picker-accounts");
  });
});
