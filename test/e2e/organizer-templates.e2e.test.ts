/*
 * The firm's organizer template editor and bulk send in Chromium against the real server and
 * database (issue 36): in the admin portal's Organizers tab the firm copies the ready "Individual
 * tax organizer", adds two questions (the second shown only when the first is Yes: a condition on an
 * earlier question), moves one with the keyboard, is shown the server's refusal of an empty label
 * with where it is, previews the condition working, and saves; it starts a new template and deletes
 * it, and sends the edited one to a household and another client at once. The household's member finds the new question hidden on her phone
 * until she answers Yes, takes a wrong file off a file question, and sees the Reviewed mark the
 * firm then puts on her answer. Every view passes axe, has no heading-order skip and does not overflow at
 * 390 and 1280 px. The steps share one server and run in order.
 */
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleWithHeadings, viewports } from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";
import type { Template } from "../../server/domains/organizers/schemas.ts";

/** Monday March 1, 2027, 9:00 in Chicago. */
const NOW = new Date("2027-03-01T15:00:00Z");
const TITLE = "2026 organizer";
const EV = "Did you buy an electric vehicle?";
const PRICE = "Price of the vehicle";

let server: TestServer;
let firmUser: UserFixture;
let maria: UserFixture;
let lee: UserFixture;
let templateId: string;

const it = browserTestFile({
  now: NOW,
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    maria = await createUser(server.db, { name: "Maria Garcia" });
    lee = await createUser(server.db, { name: "Ann Lee" });
    await server.db.updateTable("accounts").set({ name: "Garcia household", kind: "household" }).where("id", "=", maria.id).execute();
    await server.db.updateTable("accounts").set({ name: "Lee family" }).where("id", "=", lee.id).execute();
    for (const user of [maria, lee]) await server.db.updateTable("users").set({ email_verified_at: NOW }).where("id", "=", user.id).execute();
  },
});

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first().waitFor({ timeout: 10_000 });

async function storedTemplate(): Promise<Template> {
  const row = await server.db.selectFrom("organizer_templates").select("template").where("id", "=", templateId).executeTakeFirstOrThrow();
  return (typeof row.template === "string" ? JSON.parse(row.template) : row.template) as Template;
}

describe("organizer templates", () => {
  it("the firm copies the ready template, adds a question with a condition, previews it and saves", async ({ login }) => {
    const { page } = await login(firmUser, "admin", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await page.goto("/admin/dashboard?tab=organizers");
    await page.getByRole("heading", { level: 2, name: "Organizer templates" }).waitFor();
    await page.getByText("No templates yet.", { exact: false }).waitFor();
    await expectAccessibleWithHeadings(page, "organizer-templates-empty");

    await page.getByRole("button", { name: "Copy the Individual tax organizer" }).click();
    await toast(page, "“Individual tax organizer” copied to your templates");
    await page.getByRole("heading", { level: 2, name: "Individual tax organizer" }).waitFor();
    templateId = new URL(page.url()).searchParams.get("template")!;
    expect(templateId).toBeTruthy();
    await expectAccessibleWithHeadings(page, "organizer-template-editor");

    const deductions = page.getByRole("region", { name: /Section 4/ });
    // A new question's label has the focus at once.
    await deductions.getByRole("button", { name: "Add a question" }).click();
    await page.keyboard.type(EV);
    const ev = deductions.getByRole("listitem", { name: `6. ${EV}` });
    await ev.getByLabel("Type", { exact: true }).selectOption("yes_no");

    await deductions.getByRole("button", { name: "Add a question" }).click();
    await page.keyboard.type(PRICE);
    const price = deductions.getByRole("listitem", { name: `7. ${PRICE}` });
    await price.getByLabel("Type", { exact: true }).selectOption("money");
    // The condition names only questions asked before this one: the new yes/no is one, nothing after it.
    const choices = await price.getByLabel("Show this question").locator("option").allTextContents();
    expect(choices).toContain(`Only when “${EV}”…`);
    expect(choices).toContain("Only when “Filing status”…");
    expect(choices).not.toContain("Only when “How would you like a refund?”…");
    await price.getByLabel("Show this question").selectOption({ label: `Only when “${EV}”…` });
    await price.getByLabel("…is").selectOption("yes");
    await price.getByText(`Shown when “${EV}” is Yes`).waitFor();
    await expectAccessibleWithHeadings(page, "organizer-template-condition");

    // Reordered with the keyboard: the moved question's button keeps the focus.
    const moveUp = deductions.getByRole("button", { name: "Move question “Estimated tax payments made” up" });
    await moveUp.focus();
    await page.keyboard.press("Enter");
    await deductions.getByRole("listitem", { name: "4. Estimated tax payments made" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("move-estimated_payments-up");

    // An empty label: the server's schema refuses it, and the editor says where.
    const charity = deductions.getByRole("listitem", { name: "3. Cash given to charity" });
    await charity.getByRole("button", { name: "Edit question “Cash given to charity”" }).click();
    await charity.getByRole("textbox", { name: "Question", exact: true }).fill("");
    await page.getByRole("button", { name: "Save template" }).click();
    await page.getByRole("alert").filter({ hasText: "Section 4 (“Deductions”), question 3: Each question needs a label" }).waitFor();
    await deductions
      .getByRole("listitem", { name: "3. Untitled question" })
      .getByRole("textbox", { name: "Question", exact: true })
      .fill("Cash given to charity");

    // The preview shows the new question only after Yes.
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("region", { name: "Preview as the client sees it" });
    await preview.getByRole("group", { name: EV }).waitFor();
    expect(await preview.getByLabel(PRICE).count()).toBe(0);
    await preview.getByRole("group", { name: EV }).getByLabel("Yes").check();
    await preview.getByLabel(PRICE).waitFor();
    await expectAccessibleWithHeadings(page, "organizer-template-preview");

    await page.getByRole("button", { name: "Save template" }).click();
    await toast(page, "“Individual tax organizer” saved");
    await page.getByText("All changes saved").waitFor();
    const template = await storedTemplate();
    const questions = template.sections[3]!.questions;
    expect(questions.map((q) => q.label)).toEqual([
      "Did you pay mortgage interest?",
      "Your 1098 forms",
      "Cash given to charity",
      "Estimated tax payments made",
      "Medical expenses you paid",
      EV,
      PRICE,
    ]);
    const [evQuestion, priceQuestion] = questions.slice(5);
    expect(evQuestion).toMatchObject({ type: "yes_no" });
    expect(priceQuestion).toMatchObject({ type: "money", visible_if: { question: evQuestion!.id, equals: true } });
  }, 90_000);

  it("the firm sends it to the household and another client at once", async ({ login }) => {
    const { page } = await login(firmUser, "admin", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await page.goto("/admin/dashboard?tab=organizers");
    await page.getByRole("listitem", { name: "Individual tax organizer" }).waitFor();

    // A new template starts with one question and opens in the editor; deleted, it leaves the list.
    await page.getByRole("button", { name: "New template" }).click();
    await page.getByRole("dialog").getByLabel("Name").fill("Small business");
    await page.getByRole("button", { name: "Create and edit" }).click();
    await page.getByRole("heading", { level: 2, name: "Small business" }).waitFor();
    await page.getByRole("listitem", { name: "1. First question" }).waitFor();
    await page.getByRole("button", { name: "All templates" }).click();
    await page.getByRole("button", { name: "Delete Small business" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete template" }).click();
    await toast(page, "“Small business” deleted");
    await page.getByRole("listitem", { name: "Small business" }).waitFor({ state: "detached" });
    const archived = await server.db.selectFrom("organizer_templates").select(["name", "archived_at"]).where("name", "=", "Small business").execute();
    expect(archived).toEqual([{ name: "Small business", archived_at: expect.any(Date) }]);

    const form = page.getByRole("form", { name: "Send to many clients" });
    await form.getByLabel("Title").fill(TITLE);
    await form.getByLabel("Due date (optional)").fill("2027-04-15");
    await form.getByRole("button", { name: "Send organizer" }).click();
    await form.getByText("Choose the clients to send it to").waitFor();

    await form.getByLabel("Search client accounts").fill("Garcia");
    await form.getByRole("list", { name: "Client accounts" }).getByText("Lee family").waitFor({ state: "detached" });
    await form.getByLabel("Garcia household").check();
    await form.getByLabel("Search client accounts").fill("Lee");
    await form.getByLabel("Lee family").check();
    await form.getByText("Clients (2 chosen)").waitFor();
    await expectAccessibleWithHeadings(page, "organizer-bulk-send");
    await form.getByRole("button", { name: "Send to 2 clients" }).click();
    await toast(page, `“${TITLE}” sent to 2 clients`);

    const sent = await server.db.selectFrom("organizers").select(["account_id", "status", "due_date", "title"]).orderBy("account_id").execute();
    expect(sent).toEqual([maria.id, lee.id].sort().map((account_id) => ({ account_id, status: "sent", due_date: "2027-04-15", title: TITLE })));
  }, 60_000);

  it("Maria, on her phone, sees the new question only once she answers Yes", async ({ login }) => {
    const organizer = await server.db.selectFrom("organizers").select("id").where("account_id", "=", maria.id).executeTakeFirstOrThrow();
    const { page } = await login(maria, "client", { viewport: viewports.mobile, timezoneId: "America/Chicago", clock: NOW });
    await page.goto(`/organizers/${organizer.id}`);
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    const ev = page.getByRole("group", { name: EV });
    await ev.waitFor();
    expect(await page.getByLabel(PRICE).count()).toBe(0);
    await ev.getByLabel("Yes").check();
    await page.getByLabel(PRICE).fill("42,000");
    await page.getByText("Saved", { exact: true }).waitFor();
    // A file put on the wrong question comes off it again (into her trash).
    await page.getByLabel("Choose files for Your 1099 forms").setInputFiles([
      { name: "1099-int.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
      { name: "w2-by-mistake.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
    ]);
    await toast(page, "2 files uploaded for “Your 1099 forms”");
    const files = page.getByRole("list", { name: "Files for Your 1099 forms" });
    await files.getByRole("button", { name: "Remove w2-by-mistake.pdf" }).click();
    await toast(page, "“w2-by-mistake.pdf” removed");
    await files.getByText("w2-by-mistake.pdf").waitFor({ state: "detached" });
    await files.getByText("1099-int.pdf").waitFor();
    const stored = await server.db
      .selectFrom("documents")
      .select(["original_filename", "deleted_at"])
      .where("organizer_id", "=", organizer.id)
      .orderBy("original_filename")
      .execute();
    expect(stored.map((d) => [d.original_filename, d.deleted_at !== null])).toEqual([
      ["1099-int.pdf", false],
      ["w2-by-mistake.pdf", true],
    ]);
    await expectAccessibleWithHeadings(page, "organizer-client-new-condition", "mobile");
    const template = await storedTemplate();
    const [evQuestion, priceQuestion] = template.sections[3]!.questions.slice(5);
    await expect
      .poll(async () => {
        const rows = await server.db
          .selectFrom("organizer_answers")
          .select(["question_id", "value"])
          .where("organizer_id", "=", organizer.id)
          .execute();
        return Object.fromEntries(rows.map((r) => [r.question_id, r.value]));
      })
      .toMatchObject({ [evQuestion!.id]: true, [priceQuestion!.id]: 42000 });
  }, 60_000);

  it("the firm marks her answer reviewed, and she sees the mark", async ({ login }) => {
    const organizer = await server.db.selectFrom("organizers").select("id").where("account_id", "=", maria.id).executeTakeFirstOrThrow();
    const firm = await login(firmUser, "admin", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await firm.page.goto(`/admin/accounts/${maria.id}?section=organizers`);
    await firm.page.getByRole("button", { name: `Open ${TITLE}` }).click();
    const mark = firm.page.getByLabel(`Reviewed: ${PRICE}`);
    await mark.check();
    await expect
      .poll(async () => {
        const rows = await server.db.selectFrom("organizer_answers").select("reviewed_at").where("organizer_id", "=", organizer.id).execute();
        return rows.filter((r) => r.reviewed_at !== null).length;
      })
      .toBe(1);

    const { page } = await login(maria, "client", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await page.goto(`/organizers/${organizer.id}`);
    await page.getByLabel(PRICE).waitFor();
    // One mark, under the answer the firm reviewed.
    await expect.poll(() => page.getByText("Reviewed by your firm").count()).toBe(1);
    const priceBlock = page.locator("div.grid", { has: page.getByLabel(PRICE) }).filter({ hasText: "Reviewed by your firm" });
    expect(await priceBlock.count()).toBeGreaterThan(0);
    await expectAccessibleWithHeadings(page, "organizer-client-reviewed-mark");
  }, 60_000);
});
