/*
 * The Tax Forms tab shows the forms that fit the account's kind (issue 48): a business sees its own
 * returns, payroll and workers' forms, not a person's Form 1040; an individual still sees the
 * personal ones. Axe at 1280 and 390 px.
 */
import { expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, screenshotOnFailure } from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let business: UserFixture;
let person: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    business = await createUser(server.db, { name: "Dana Owner" });
    await server.db.updateTable("accounts").set({ kind: "business", name: "Owner Bakery LLC" }).where("id", "=", business.id).execute();
    person = await createUser(server.db, { name: "Rowan Ellis" });
  },
});

it("a business account sees a business's forms, not a person's", async ({ login }) => {
  const { page } = await login(business, "client");
  await screenshotOnFailure(page, "tax-forms-business", async () => {
    await page.goto("/dashboard?tab=tax-forms");
    const forms = page.getByRole("list").filter({ hasText: "Form 941" });
    await forms.getByText("Form 1120-S", { exact: true }).waitFor();
    expect(await page.getByText("Form 1040", { exact: true }).count()).toBe(0);
    expect(await page.getByText("Schedule C", { exact: true }).count()).toBe(0);
    await expectAccessibleAtBothWidths(page, "tax-forms-business");
  });
});

it("an individual still sees the personal forms", async ({ login }) => {
  const { page } = await login(person, "client");
  await page.goto("/dashboard?tab=tax-forms");
  await page.getByText("Form 1040", { exact: true }).waitFor();
  expect(await page.getByText("Form 941", { exact: true }).count()).toBe(0);
});
