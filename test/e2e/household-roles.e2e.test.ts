/*
 * A household person's role (issue 48; docs/decisions.md, "A household person's role"): the firm
 * says who each person of the Garcia household is and invites their daughter as a dependent; Maria,
 * on her phone, sees the roles in her people settings and says she is the taxpayer. Axe at 1280 and
 * 390 px on each view.
 */
import type { Page } from "playwright-core";
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

const person = (page: Page, name: string) => page.getByRole("listitem", { name });

it("the firm sets a spouse's role and invites a dependent", async ({ login }) => {
  const { page } = await login(firmUser, "admin", { viewport: viewports.desktop, reducedMotion: "reduce" });
  await screenshotOnFailure(page, "household-roles-firm", async () => {
    await page.goto(`/admin/accounts/${maria.id}`);
    await page.getByLabel("Household role of Jose Garcia").selectOption({ label: "Spouse" });
    await person(page, "Jose Garcia").locator("div").first().getByText("Spouse", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Invite a person" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Lucia Garcia");
    await dialog.getByLabel("Email").fill("lucia@example.com");
    await dialog.getByLabel("Role in the household").selectOption({ label: "Dependent" });
    await dialog.getByRole("button", { name: "Invite" }).click();
    await dialog.waitFor({ state: "detached" });
    await person(page, "Lucia Garcia").locator("div").first().getByText("Dependent", { exact: true }).waitFor();
    await expectAccessibleAtBothWidths(page, "household-roles-firm");
    const rows = await server.db.selectFrom("account_contacts").select(["user_id", "household_role"]).where("account_id", "=", maria.id).execute();
    expect(Object.fromEntries(rows.map((r) => [r.user_id, r.household_role]))).toMatchObject({ [maria.id]: null });
    expect(rows.filter((r) => r.household_role === "spouse")).toHaveLength(1);
  });
});

it("Maria, on her phone, sees who is who and says she is the taxpayer", async ({ login }) => {
  const { page } = await login(maria, "client", { viewport: viewports.mobile, reducedMotion: "reduce" });
  await screenshotOnFailure(page, "household-roles-client", async () => {
    await page.goto("/settings");
    // The badge beside each name (the role's select repeats the words as its options).
    const badge = (name: string, role: string) => person(page, name).locator("p").first().getByText(role, { exact: true });
    await badge("Jose Garcia", "Spouse").waitFor();
    await badge("Lucia Garcia", "Dependent").waitFor();
    await page.getByLabel("Household role of Maria Garcia").selectOption({ label: "Taxpayer" });
    await badge("Maria Garcia", "Taxpayer").waitFor();
    await page.getByRole("form", { name: "Invite a person" }).getByLabel("Role in the household").waitFor();
    await expectAccessibleAtBothWidths(page, "household-roles-client");
    const own = await server.db.selectFrom("account_contacts").select("household_role").where("user_id", "=", maria.id).executeTakeFirstOrThrow();
    expect(own.household_role).toBe("taxpayer");
  });
});
