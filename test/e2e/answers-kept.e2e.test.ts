/*
 * Answers that look saved are saved (issue 48, item 3, and its minor items on organizers), in
 * Chromium against the real server: on a 390 px phone Maria types "about 1200" as the cash she
 * gave to charity; the field says at once why it is not saved, the page says an answer is not
 * saved and Submit takes her to it instead of handing the organizer in without it; "1,200" is
 * saved. She adds a dependent ("Add a dependent"); James, at 1280 px, cannot read that entry and
 * adds his own beside it, which keeps hers; he submits and the focus lands on the confirmation.
 * Then a checklist request: Mark submitted with two items still needed asks first and lists them;
 * the firm sees which are missing in its list, its checklist and its Inbox. A W-2 sent for the
 * organizer and again for the request's item is one document, counted for both. Every view passes
 * axe, has no heading-order skip and does not overflow at 390 and 1280 px.
 */
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleWithHeadings, viewports } from "../helpers/browser.ts";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

/** Monday March 1, 2027, 9:00 in Chicago. */
const NOW = new Date("2027-03-01T15:00:00Z");
const TITLE = "2026 tax organizer";
const W2 = { name: "w2-acme-2026.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n% W-2 Acme Tools 2026\n%%EOF\n") };

const TEMPLATE = {
  sections: [
    {
      title: "Your family",
      questions: [
        { id: "has_dependents", type: "yes_no", label: "Do you have dependents?", required: true },
        {
          id: "dependents",
          type: "group",
          label: "One entry per dependent",
          required: true,
          sensitive: true,
          visible_if: { question: "has_dependents", equals: true },
          questions: [
            { id: "dependent_name", type: "text", label: "Full name", required: true },
            { id: "dependent_ssn", type: "text", label: "Social Security number", required: true },
          ],
        },
      ],
    },
    {
      title: "Income and deductions",
      questions: [
        { id: "w2_files", type: "file", label: "Your W-2 forms" },
        { id: "charity_cash", type: "money", label: "Cash given to charity" },
      ],
    },
  ],
};

let server: TestServer;
let firmUser: UserFixture;
let maria: UserFixture;
let james: UserFixture;
let organizerId: string;
let requestId: string;

const it = browserTestFile({
  now: NOW,
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    maria = await createUser(server.db, { name: "Maria Garcia" });
    james = await createUser(server.db, { name: "James Garcia" });
    await makeHousehold(server.db, { owner: maria, member: james, name: "Garcia household", verifiedAt: NOW });
    const firm = await loginClient(server.url, firmUser, "admin");
    const template = await firm.post("/api/admin/organizer-templates", { name: "Season 2026", template: TEMPLATE });
    expect(template.status, template.text).toBe(201);
    const organizer = await firm.post("/api/admin/organizers", { account_id: maria.id, template_id: template.body.id, title: TITLE });
    expect(organizer.status, organizer.text).toBe(201);
    organizerId = organizer.body.id;
    const request = await firm.post("/api/admin/requests", {
      account_id: maria.id,
      title: "2026 tax documents",
      items: [{ title: "2026 W-2" }, { title: "1099-INT" }, { title: "Property tax bill" }],
    });
    expect(request.status, request.text).toBe(201);
    requestId = request.body.id;
  },
});

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first().waitFor({ timeout: 10_000 });

async function answers(): Promise<Record<string, unknown>> {
  const rows = await server.db.selectFrom("organizer_answers").select(["question_id", "value"]).where("organizer_id", "=", organizerId).execute();
  return Object.fromEntries(rows.map((row) => [row.question_id, row.value]));
}

describe("answers that look saved are saved", { timeout: 120_000 }, () => {
  it("Maria, on her phone: an amount that is not one is refused where she typed it, and Submit waits for it", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(maria, "client", { viewport: viewports.mobile, timezoneId: "America/Chicago", clock: NOW });
    await page.goto(`/organizers/${organizerId}`);
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();

    const charity = page.getByLabel("Cash given to charity");
    await charity.fill("about 1200");
    const reason = "Not saved: type an amount in dollars and cents, like 1200 or 1,200.50";
    await page.getByText(reason).waitFor();
    expect(await charity.getAttribute("aria-invalid")).toBe("true");
    expect(await charity.getAttribute("aria-describedby")).toContain("q-charity_cash-error");
    await page.getByText("An answer below is not saved: it says why").waitFor();
    await expectAccessibleWithHeadings(page, "answers-refused-where-typed", "mobile");

    // Submit hands nothing in without it: the answer's field takes the focus, and the page says why.
    await page.getByRole("group", { name: "Do you have dependents?" }).getByLabel("No").check();
    await page.getByRole("button", { name: "Submit to your firm" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("q-charity_cash");
    await page.getByText("One answer is not saved: fix it, then submit.").waitFor();
    const status = await server.db.selectFrom("organizers").select("status").where("id", "=", organizerId).executeTakeFirstOrThrow();
    expect(status.status).toBe("sent");
    await expect.poll(answers).toEqual({ has_dependents: false });

    await charity.fill("1,200");
    await page.getByText("Saved", { exact: true }).waitFor();
    expect(await page.getByText(reason).count()).toBe(0);
    expect(await charity.getAttribute("aria-invalid")).toBeNull();
    await expect.poll(answers).toEqual({ has_dependents: false, charity_cash: 1200 });
    expectNoConsoleErrors();
  });

  it("Maria adds a dependent; James, who cannot read her entry, adds his beside it and submits", async ({ login }) => {
    const phone = await login(maria, "client", { viewport: viewports.mobile, timezoneId: "America/Chicago", clock: NOW });
    await phone.page.goto(`/organizers/${organizerId}`);
    await phone.page.getByRole("group", { name: "Do you have dependents?" }).getByLabel("Yes").check();
    await phone.page.getByRole("button", { name: "Add a dependent" }).click();
    const ada = phone.page.getByRole("group", { name: "Dependent 1" });
    await ada.getByLabel("Full name").fill("Ada Garcia");
    await ada.getByLabel("Social Security number").fill("123-45-6789");
    await phone.page.getByText("Saved", { exact: true }).waitFor();
    await expectAccessibleWithHeadings(phone.page, "answers-dependent-added", "mobile");
    await phone.close();

    const { page, expectNoConsoleErrors } = await login(james, "client", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await page.goto(`/organizers/${organizerId}`);
    const hidden = page.getByRole("group", { name: "Dependent 1" });
    await hidden.getByText("saved and hidden for your privacy").waitFor();
    expect(await page.content()).not.toContain("123-45-6789");
    await expectAccessibleWithHeadings(page, "answers-hidden-entry");
    await page.getByRole("button", { name: "Add another dependent" }).click();
    const bo = page.getByRole("group", { name: "Dependent 2" });
    await bo.getByLabel("Full name").fill("Bo Garcia");
    await bo.getByLabel("Social Security number").fill("987-65-4321");
    await page.getByText("Saved", { exact: true }).waitFor();
    // Both entries are the firm's to read: his did not replace hers.
    const firm = await loginClient(server.url, firmUser, "admin");
    await expect
      .poll(
        async () =>
          (await firm.get(`/api/admin/organizers/${organizerId}`)).body.answers.find((a: { question_id: string }) => a.question_id === "dependents")
            ?.value,
      )
      .toEqual([
        { dependent_name: "Ada Garcia", dependent_ssn: "123-45-6789" },
        { dependent_name: "Bo Garcia", dependent_ssn: "987-65-4321" },
      ]);

    await page.getByLabel("Choose files for Your W-2 forms").setInputFiles([W2]);
    await toast(page, "File uploaded for “Your W-2 forms”");
    await page.getByRole("button", { name: "Submit to your firm" }).click();
    await toast(page, `“${TITLE}” submitted to your firm`);
    // The Submit button is gone: the focus is on what replaced it, not on the page's body.
    const heading = page.getByRole("heading", { level: 2, name: "Submitted to your firm" });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAccessibleWithHeadings(page, "answers-submitted");
    expectNoConsoleErrors();
  });

  it("Mark submitted with items still needed asks first, listing them, and the firm sees which are missing", async ({ login }) => {
    const { page, expectNoConsoleErrors } = await login(maria, "client", { viewport: viewports.mobile, timezoneId: "America/Chicago", clock: NOW });
    await page.goto("/dashboard");
    const request = page.getByRole("listitem", { name: "2026 tax documents" });
    const w2 = request.getByRole("listitem", { name: "2026 W-2" });
    // The W-2 she sent with her organizer: the same file, counted for this item, not stored twice.
    await w2.getByLabel("Choose files for 2026 W-2").setInputFiles([{ ...W2, name: "IMG_2231.pdf" }]);
    await toast(page, "File uploaded for “2026 W-2”");
    await w2.getByText("Uploaded", { exact: true }).waitFor();
    const documents = await server.db
      .selectFrom("documents")
      .select(["request_item_id", "organizer_id"])
      .where("account_id", "=", maria.id)
      .execute();
    expect(documents).toEqual([{ request_item_id: expect.any(String), organizer_id: organizerId }]);

    await request.getByRole("button", { name: "Mark submitted" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Submit without 2 items?" });
    await dialog.waitFor();
    expect(await dialog.getByRole("list", { name: "Still needed" }).getByRole("listitem").allInnerTexts()).toEqual(["1099-INT", "Property tax bill"]);
    await expectAccessibleWithHeadings(page, "answers-submit-without", "mobile");
    await dialog.getByRole("button", { name: "Keep uploading" }).click();
    await dialog.waitFor({ state: "detached" });
    const open = await server.db.selectFrom("document_requests").select("status").where("id", "=", requestId).executeTakeFirstOrThrow();
    expect(open.status).toBe("open");

    await request.getByRole("button", { name: "Mark submitted" }).click();
    await page.getByRole("alertdialog", { name: "Submit without 2 items?" }).getByRole("button", { name: "Submit anyway" }).click();
    await toast(page, "“2026 tax documents” submitted to your firm");
    const submitted = await server.db.selectFrom("document_requests").select("status").where("id", "=", requestId).executeTakeFirstOrThrow();
    expect(submitted.status).toBe("submitted");
    expectNoConsoleErrors();

    const firm = await login(firmUser, "admin", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await firm.page.goto("/admin/dashboard?tab=requests");
    const row = firm.page.getByRole("row").filter({ hasText: "2026 tax documents" });
    await row.getByText("Submitted without 2 items: 1099-INT, Property tax bill").waitFor();
    await expectAccessibleWithHeadings(firm.page, "answers-firm-requests");
    await row.getByRole("button", { name: /^Checklist: 2026 tax documents/ }).click();
    const checklist = firm.page.getByRole("dialog", { name: "Checklist" });
    await checklist.getByText("Submitted without 2 items: 1099-INT, Property tax bill.").waitFor();
    await checklist.getByRole("list", { name: "Files for 2026 W-2" }).getByText("w2-acme-2026.pdf").waitFor();
    await expectAccessibleWithHeadings(firm.page, "answers-firm-checklist");
    await firm.page.keyboard.press("Escape");

    await firm.page.goto("/admin/dashboard?tab=inbox");
    await firm.page.getByText("Submitted without 2 items: 1099-INT, Property tax bill").waitFor();
    await expectAccessibleWithHeadings(firm.page, "answers-firm-inbox");
    firm.expectNoConsoleErrors();
  });
});
