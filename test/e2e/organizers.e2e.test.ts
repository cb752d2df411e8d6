/*
 * Tax organizers in Chromium against the real server and database (issue 36): the firm copies the
 * ready "Individual tax organizer" on a household's record and sends it; one spouse finds it on the
 * dashboard of a 390 px phone, answers part (a condition shows the new-address question), and
 * leaves; the other opens it at 1280 px, finds those answers saved, is shown what is still missing
 * when submitting too early (the first missing question focused), adds an employer, two W-2 files
 * and the refund's bank numbers, and submits; a reload shows the bank numbers masked; he takes it
 * back and submits again. The firm marks an answer reviewed, downloads the PDF, and reopens it with
 * a comment the client then reads. Every view passes axe, has no heading-order skip and does not
 * overflow at 390 and 1280 px. The steps share one server and run in order.
 */
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleWithHeadings, viewports } from "../helpers/browser.ts";
import { createUser, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

/** Monday March 1, 2027, 9:00 in Chicago. */
const NOW = new Date("2027-03-01T15:00:00Z");
const TITLE = "2026 tax organizer";

let server: TestServer;
let firmUser: UserFixture;
let maria: UserFixture;
let james: UserFixture;
let organizerId: string;

const it = browserTestFile({
  now: NOW,
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    maria = await createUser(server.db, { name: "Maria Garcia" });
    james = await createUser(server.db, { name: "James Garcia" });
    // A household of two: Maria's account, James a member of it with no account of his own.
    await makeHousehold(server.db, { owner: maria, member: james, name: "Garcia household", verifiedAt: NOW });
  },
});

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first().waitFor({ timeout: 10_000 });

async function answersOf(id: string): Promise<Record<string, unknown>> {
  const rows = await server.db.selectFrom("organizer_answers").select(["question_id", "value"]).where("organizer_id", "=", id).execute();
  return Object.fromEntries(rows.map((row) => [row.question_id, row.value]));
}

describe("tax organizers", () => {
  it("the firm copies the ready template on the household's record and sends it", async ({ login }) => {
    const { page } = await login(firmUser, "admin", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await page.goto(`/admin/accounts/${maria.id}?section=organizers`);
    await page.getByRole("heading", { level: 2, name: "Organizers" }).waitFor();
    await page.getByText("Your firm has no organizer template yet.", { exact: false }).waitFor();
    await expectAccessibleWithHeadings(page, "organizers-firm-empty");

    await page.getByRole("button", { name: "Copy the Individual tax organizer" }).click();
    await toast(page, "“Individual tax organizer” copied to your templates");
    await page.getByLabel("Title").fill(TITLE);
    await page.getByLabel("Due date (optional)").fill("2027-04-01");
    await page.getByRole("button", { name: "Send organizer" }).click();
    await toast(page, "Organizer sent to Garcia household");
    const row = page.getByRole("listitem", { name: TITLE });
    await row.getByText("Sent", { exact: true }).waitFor();
    await expectAccessibleWithHeadings(page, "organizers-firm-sent");

    const sent = await server.db.selectFrom("organizers").select(["id", "status", "due_date"]).where("account_id", "=", maria.id).execute();
    expect(sent).toEqual([{ id: expect.any(String), status: "sent", due_date: "2027-04-01" }]);
    organizerId = sent[0]!.id;
  });

  it("Maria, on her phone, finds it on the dashboard, answers part of it, and leaves", async ({ login }) => {
    const { page } = await login(maria, "client", { viewport: viewports.mobile, timezoneId: "America/Chicago", clock: NOW });
    await page.goto("/dashboard");
    const card = page.getByRole("region", { name: "Organizers" });
    await card.getByText("0 of", { exact: false }).waitFor();
    await expectAccessibleWithHeadings(page, "organizers-dashboard-card", "mobile");

    await card.getByRole("link", { name: new RegExp(TITLE) }).click();
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/organizers/${organizerId}`);
    // No move yet: the new-address question waits for "Yes".
    expect(await page.getByLabel("Your new address").count()).toBe(0);

    await page.getByLabel("Filing status").selectOption("Married filing jointly");
    await page.getByRole("group", { name: "Did you marry, divorce or separate this year?" }).getByLabel("No").check();
    await page.getByRole("group", { name: "Did you move this year?" }).getByLabel("Yes").check();
    await page.getByLabel("Your new address").fill("12 Harbor Lane\nSpringfield, IL 62701");
    await page.getByRole("group", { name: "Do you have dependents?" }).getByLabel("No").check();
    await page.getByText("Saved", { exact: true }).waitFor();
    await expectAccessibleWithHeadings(page, "organizers-client-phone", "mobile");

    // Closing the page straight after typing, before the pause that saves: what she typed goes along.
    await page.getByLabel("Anything else we should know?").fill("Call me after 5 pm.");
    await page.close({ runBeforeUnload: true });

    await expect
      .poll(() => answersOf(organizerId))
      .toMatchObject({
        notes: "Call me after 5 pm.",
        filing_status: "Married filing jointly",
        married_this_year: false,
        moved: true,
        new_address: "12 Harbor Lane\nSpringfield, IL 62701",
        has_dependents: false,
      });
  });

  it("James finishes it at 1280 px: told what is missing, adds an employer and two W-2s, and submits", async ({ login }) => {
    const { page } = await login(james, "client", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await page.goto(`/organizers/${organizerId}`);
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    // Maria's answers are there.
    expect(await page.getByLabel("Your new address").inputValue()).toBe("12 Harbor Lane\nSpringfield, IL 62701");
    expect(await page.getByLabel("Filing status").inputValue()).toBe("Married filing jointly");

    // Too early: the server's list of missing questions is shown, and the first one has the focus.
    await page.getByRole("button", { name: "Submit to your firm" }).click();
    await page.getByText("3 questions still need an answer.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("q-income_kinds");
    await expectAccessibleWithHeadings(page, "organizers-client-missing");

    const income = page.getByRole("group", { name: "Which income did you have?" });
    await income.getByLabel("Wages (W-2)").check();
    await page.getByRole("button", { name: "Add an employer" }).click();
    const employer = page.getByRole("group", { name: "Employer 1" });
    await employer.getByRole("textbox", { name: "Employer", exact: true }).fill("Acme Tools");
    await employer.getByLabel("Wages (box 1)").fill("52,000.50");
    expect(await employer.getByLabel("Wages (box 1)").getAttribute("inputmode")).toBe("decimal");
    await page.getByLabel("Choose files for Your W-2 forms").setInputFiles([
      { name: "w2-acme.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
      { name: "w2-harbor.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
    ]);
    await toast(page, "2 files uploaded for “Your W-2 forms”");
    await page.getByRole("list", { name: "Files for Your W-2 forms" }).getByText("w2-harbor.pdf").waitFor();
    await page.getByRole("group", { name: "Did you pay mortgage interest?" }).getByLabel("No").check();
    await page.getByLabel("How would you like a refund?").selectOption("Direct deposit");
    await page.getByLabel("Routing number").fill("011000015");
    await page.getByLabel("Account number").fill("987654321");
    await page.getByText("Saved", { exact: true }).waitFor();
    await expectAccessibleWithHeadings(page, "organizers-client-desktop");

    await page.getByRole("button", { name: "Submit to your firm" }).click();
    await toast(page, `“${TITLE}” submitted to your firm`);
    await page.getByText("Submitted · waiting for your firm").waitFor();
    await page.getByRole("button", { name: "Take back to change answers" }).waitFor();
    expect(await page.getByLabel("Routing number").isDisabled()).toBe(true);

    const stored = await server.db.selectFrom("organizers").select("status").where("id", "=", organizerId).executeTakeFirstOrThrow();
    expect(stored.status).toBe("submitted");
    const answers = await answersOf(organizerId);
    expect(answers.w2_jobs).toEqual([{ employer: "Acme Tools", wages: 52000.5 }]);
    const files = await server.db
      .selectFrom("documents")
      .select("original_filename")
      .where("account_id", "=", maria.id)
      .orderBy("original_filename")
      .execute();
    expect(files.map((f) => f.original_filename)).toEqual(["w2-acme.pdf", "w2-harbor.pdf"]);

    // Read again, the bank numbers are masked: never sent back to the browser.
    await page.reload();
    await page.getByText("•••• 0015").waitFor();
    await page.getByText("•••• 4321").waitFor();
    expect(await page.getByLabel("Account number").inputValue()).toBe("");
    expect(await page.getByLabel("Wages (box 1)").inputValue()).toBe("52000.50");
    await expectAccessibleWithHeadings(page, "organizers-client-submitted");

    // Un-submit: taken back, it can be changed again; submitted again, it goes back to the firm.
    await page.getByRole("button", { name: "Take back to change answers" }).click();
    await toast(page, "Taken back");
    await page.getByText("To fill in", { exact: true }).waitFor();
    expect(await page.getByLabel("Routing number").isDisabled()).toBe(false);
    await page.getByRole("button", { name: "Submit to your firm" }).click();
    await page.getByText("Submitted · waiting for your firm").waitFor();
    const again = await server.db.selectFrom("organizers").select("status").where("id", "=", organizerId).executeTakeFirstOrThrow();
    expect(again.status).toBe("submitted");
  }, 60_000);

  it("the firm reads the answers beside the questions, marks one reviewed, downloads the PDF, and reopens it with a comment", async ({ login }) => {
    const { page } = await login(firmUser, "admin", { viewport: viewports.desktop, timezoneId: "America/Chicago", clock: NOW });
    await page.goto(`/admin/accounts/${maria.id}?section=organizers`);
    const row = page.getByRole("listitem", { name: TITLE });
    await row.getByText("Submitted", { exact: true }).waitFor();
    await row.getByRole("button", { name: `Open ${TITLE}` }).click();
    await page.getByRole("heading", { level: 2, name: TITLE }).waitFor();
    await page.getByText("Acme Tools").waitFor();
    await page.getByText("987654321").waitFor();

    const reviewed = page.getByLabel("Reviewed: Filing status");
    await reviewed.check();
    await expect.poll(() => reviewed.isChecked()).toBe(true);
    await expect
      .poll(async () => {
        const row = await server.db
          .selectFrom("organizer_answers")
          .select("reviewed_at")
          .where("organizer_id", "=", organizerId)
          .where("question_id", "=", "filing_status")
          .executeTakeFirst();
        return row?.reviewed_at != null;
      })
      .toBe(true);
    await expectAccessibleWithHeadings(page, "organizers-firm-review");

    await page.getByRole("button", { name: "All organizers" }).click();
    const csvHref = await page.getByRole("link", { name: "Answers of all clients (CSV)" }).getAttribute("href");
    const csv = await page.request.get(csvHref!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
    expect(await csv.text()).toContain("Acme Tools");
    await page.getByRole("button", { name: `Open ${TITLE}` }).click();

    const href = await page.getByRole("link", { name: "Download PDF" }).getAttribute("href");
    expect(href).toBe(`/api/admin/organizers/${organizerId}/pdf`);
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toMatch(/^application\/pdf/);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

    // Reopened with a comment, it goes back to the client, who reads the comment.
    await page.getByLabel("Reopen with a comment").fill("Please add the 1099-INT from your savings bank.");
    await page.getByRole("button", { name: "Reopen", exact: true }).click();
    await toast(page, "Reopened");
    await page.getByText("Please add the 1099-INT from your savings bank.").waitFor();
    const reopened = await server.db
      .selectFrom("organizers")
      .select(["status", "reopen_comment"])
      .where("id", "=", organizerId)
      .executeTakeFirstOrThrow();
    expect(reopened).toEqual({ status: "reopened", reopen_comment: "Please add the 1099-INT from your savings bank." });
    const client = await login(maria, "client", { viewport: viewports.mobile, timezoneId: "America/Chicago", clock: NOW });
    await client.page.goto(`/organizers/${organizerId}`);
    await client.page.getByText("Please add the 1099-INT from your savings bank.").waitFor();
    await client.page.getByText("Reopened by your firm").waitFor();
    await expectAccessibleWithHeadings(client.page, "organizers-client-reopened", "mobile");
  }, 60_000);
});
