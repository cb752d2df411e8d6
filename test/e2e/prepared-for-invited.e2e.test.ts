/*
 * Issue 48, item 2, in Chromium against the real server, database and a test SMTP server: nothing
 * waited for people invited but not signed up yet. The owner assigns a household's account to a
 * preparer who was invited to the team and has not accepted, and asks the household's two spouses,
 * invited and not signed up either, to sign a letter. Maria accepts her (resent) invitation on a
 * phone and finds the letter on her dashboard, hers to sign; the preparer accepts and finds the
 * household among her clients. axe, no sideways scrolling and screenshots at 390 and 1280 px.
 */
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, expectAccessibleWithHeadings, newPage, screenshotOnFailure, viewports } from "../helpers/browser.ts";
import { createStaffMember, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import type { TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { acceptStaffInvitation, toast } from "../helpers/staff-browser.ts";

const PASSWORD = "Amber-Quay-Ledger-57";
const MARIA = "maria.ortega@example.com";
const JOSE = "jose.ortega@example.com";
const PREPARER = "pat.preparer@example.com";

let server: TestServer;
let smtp: TestSmtpServer;
let owner: UserFixture;
let ownerApi: ApiClient;
let accountId: string;
let mariaInvitation: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

const it = browserTestFile({
  server: () => ({ env: { SMTP_URL: smtp.url } }),
  setUp: async (started) => {
    server = started;
    owner = await createStaffMember(server.db, "owner", [], { name: "Olivia Owner" });
    ownerApi = await loginClient(server.url, owner, "admin");
    // Invited, nobody signed up: the preparer to the team, the two spouses to one household account.
    const preparer = await ownerApi.post("/api/admin/staff", {
      name: "Pat Preparer",
      email: PREPARER,
      role: "staff",
      rights: ["documents", "messages"],
    });
    expect(preparer.status, preparer.text).toBe(201);
    const maria = await ownerApi.post("/api/admin/invitations", { name: "Maria Ortega", email: MARIA });
    expect(maria.status, maria.text).toBe(201);
    accountId = maria.body.account_id;
    mariaInvitation = maria.body.id;
    await server.db.updateTable("accounts").set({ name: "Ortega household", kind: "household" }).where("id", "=", accountId).execute();
    const jose = await ownerApi.post("/api/admin/invitations", { name: "Jose Ortega", email: JOSE, account_id: accountId });
    expect(jose.status, jose.text).toBe(201);
    const form = new FormData();
    form.append("file", new Blob([(await letterPdf()) as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "engagement-letter.pdf");
    const uploaded = await ownerApi.request("POST", `/api/admin/users/${accountId}/documents`, { body: form });
    expect(uploaded.status, uploaded.text).toBe(201);
  },
});

afterAll(async () => {
  await smtp?.stop();
});

async function letterPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText("Engagement letter 2026", { x: 72, y: 700, size: 18, font });
  return doc.save();
}

describe("prepared for invited people", () => {
  it("the owner assigns an invited preparer and asks two invited spouses to sign; each finds it on accepting", async ({ login }) => {
    const t = await login(owner, "admin", { viewport: viewports.desktop, reducedMotion: "reduce" });
    const { page } = t;
    page.setDefaultTimeout(15_000);

    await screenshotOnFailure(page, "invited-assign", async () => {
      await page.goto(`/admin/accounts/${accountId}`);
      await page.getByRole("heading", { level: 1, name: "Ortega household" }).waitFor();
      await page.getByRole("button", { name: "Change assignees" }).click();
      const dialog = page.getByRole("dialog", { name: "Assignees of Ortega household" });
      // The preparer has not accepted yet, and is offered all the same.
      await dialog.getByRole("checkbox", { name: /Pat Preparer · staff, invited/ }).check();
      await expectAccessibleAtBothWidths(page, "invited-assign-dialog", ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Save" }).click();
      await toast(page, "Assignees of Ortega household saved.").waitFor();
      await page.getByTestId("assignee-names").getByText("Pat Preparer (invited, from when they accept)").waitFor();
      await expectAccessibleAtBothWidths(page, "invited-assigned");
    });

    await screenshotOnFailure(page, "invited-signers", async () => {
      await page.goto(`/admin/accounts/${accountId}?section=signatures`);
      await page.getByRole("button", { name: "Request signature" }).click();
      await page.getByLabel("PDF to sign").selectOption({ label: "engagement-letter.pdf" });
      await page.getByLabel("Title").fill("Engagement letter 2026");
      // Both spouses are invited and not signed up: chosen as signers all the same (no "invite a person first").
      expect(await page.getByText("invite a person first").count()).toBe(0);
      expect(await page.getByRole("checkbox", { name: /Maria Ortega.*invited, not signed up yet/ }).isChecked()).toBe(true);
      expect(await page.getByRole("checkbox", { name: /Jose Ortega.*invited, not signed up yet/ }).isChecked()).toBe(true);
      await expectAccessibleWithHeadings(page, "invited-signers");
      await page.getByRole("button", { name: "Place fields" }).click();
      await page.locator('[data-page="1"] canvas[data-rendered="true"]').waitFor();
      const palette = page.getByRole("group", { name: "Add a field" });
      await palette.getByRole("button", { name: "Signature" }).click();
      await page.getByRole("radio", { name: "Jose Ortega" }).check();
      await palette.getByRole("button", { name: "Signature" }).click();
      await page.getByText("2 fields placed.").waitFor();
      await page.getByRole("button", { name: "Send for signature" }).click();
      await toast(page, "“Engagement letter 2026” sent for signature").waitFor();
      const maria = page.getByRole("listitem", { name: "Maria Ortega" });
      await maria.getByText("Invited, not signed up yet", { exact: false }).waitFor();
      await expectAccessibleWithHeadings(page, "invited-request-detail");
    });
    t.expectNoConsoleErrors();

    // Maria's invitation, sent again, says what waits; she accepts it on her phone.
    expect((await ownerApi.post(`/api/admin/invitations/${mariaInvitation}/resend`)).status).toBe(200);
    const mail = await smtp.waitForMail(MARIA, /invitation/i, 20_000);
    await expect
      .poll(() => smtp.messages.filter((x) => x.to.includes(MARIA) && x.text.includes("Waiting for you in the portal: 1 document to sign.")).length, {
        timeout: 20_000,
      })
      .toBe(1);
    const resent = smtp.messages.find((x) => x.to.includes(MARIA) && x.text.includes("Waiting for you in the portal"))!;
    expect(resent).not.toBe(mail);
    const link = /http:\/\/\S+\/\?invite=[a-z2-7]+/.exec(resent.text)![0];
    const browser = t.context.browser()!;
    const m = await newPage(browser, { baseURL: server.url, viewport: viewports.mobile, reducedMotion: "reduce" });
    m.page.setDefaultTimeout(15_000);
    await screenshotOnFailure(m.page, "invited-maria", async () => {
      await m.page.goto(link);
      const dialog = m.page.getByRole("dialog", { name: "Accept your invitation" });
      await dialog.getByLabel("Username").fill("maria_ortega");
      await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await dialog.getByLabel("Confirm Password").fill(PASSWORD);
      await dialog.getByRole("button", { name: "Create Account" }).click();
      await m.page.waitForURL(/\/dashboard/);
      const signatures = m.page.getByRole("list", { name: "Documents to sign" });
      await signatures.getByText("Engagement letter 2026").waitFor();
      await signatures.getByText("Review and sign").waitFor();
      await expectAccessibleAtBothWidths(m.page, "invited-maria-dashboard");
    });
    m.expectNoConsoleErrors();
    await m.close();

    // The preparer accepts, and the household is hers from the first click.
    const preparer = await acceptStaffInvitation({ browser, server, smtp }, PREPARER, "invited-preparer");
    await screenshotOnFailure(preparer.page, "invited-preparer-clients", async () => {
      await preparer.page.goto(`/admin/accounts/${accountId}`);
      await preparer.page.getByRole("heading", { level: 1, name: "Ortega household" }).waitFor();
      await preparer.page.getByTestId("assignee-names").getByText("Pat Preparer").waitFor();
      await expectAccessibleAtBothWidths(preparer.page, "invited-preparer-account");
    });
    preparer.expectNoConsoleErrors();
    await preparer.close();
  }, 240_000);
});
