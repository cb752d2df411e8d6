/*
 * A PDF uploaded while preparing a signature request (issue 48; docs/decisions.md, "A PDF for a
 * signature request waits for the request"): the firm uploads it in the request's dialog, and the
 * client, on her phone, does not see it among her documents; the firm cancels the draft and it
 * goes to the firm's trash, never to the client. Prepared again and sent, it is hers to see. Axe at
 * 1280 and 390 px on each view.
 */
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths, screenshotOnFailure, viewports } from "../helpers/browser.ts";
import { createUser, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const DRAFT_PDF = "draft-engagement.pdf";
const SENT_PDF = "engagement-2026.pdf";

let server: TestServer;
let smtp: TestSmtpServer;
let firmUser: UserFixture;
let maria: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

const it = browserTestFile({
  server: () => ({ env: { SMTP_URL: smtp.url } }),
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    maria = await createUser(server.db, { name: "Maria Garcia" });
  },
});

afterAll(async () => {
  await smtp?.stop();
});

async function onePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText("Engagement letter", { x: 72, y: 700, size: 18, font });
  return Buffer.from(await doc.save());
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first().waitFor({ timeout: 15_000 });

async function uploadInDialog(page: Page, name: string) {
  await page.goto(`/admin/accounts/${maria.id}?section=signatures`);
  await page.getByRole("button", { name: "Request signature" }).click();
  await page.getByLabel("Upload a PDF").setInputFiles({ name, mimeType: "application/pdf", buffer: await onePagePdf() });
  await toast(page, `${name} uploaded. The client sees it once you send the request.`);
  await page.getByText("The client sees it only once you send the request", { exact: false }).waitFor();
}

/** The client's root documents, loaded: the empty message, or the file named. */
async function clientRoot(page: Page) {
  await page.goto("/dashboard");
  await page
    .getByText(/No documents in root folder\.|\.pdf/)
    .first()
    .waitFor();
  return (await page.textContent("main")) ?? "";
}

it("a PDF uploaded for a draft stays the firm's, and the cancelled draft leaves it out of the client's sight", async ({ login }) => {
  const firm = await login(firmUser, "admin", { viewport: viewports.desktop });
  const client = await login(maria, "client", { viewport: viewports.mobile });
  await screenshotOnFailure(firm.page, "held-signature-pdf-draft", async () => {
    await uploadInDialog(firm.page, DRAFT_PDF);
    expect(await firm.page.getByLabel("PDF to sign").locator("option:checked").textContent()).toBe(DRAFT_PDF);
    await expectAccessibleAtBothWidths(firm.page, "held-signature-pdf-firm-dialog");

    const before = await clientRoot(client.page);
    expect(before).toContain("No documents in root folder.");
    expect(before).not.toContain(DRAFT_PDF);
    await expectAccessibleAtBothWidths(client.page, "held-signature-pdf-client-before");

    await firm.page.getByRole("button", { name: "Cancel" }).click();
    await expect
      .poll(() => server.db.selectFrom("documents").select("deleted_at").where("original_filename", "=", DRAFT_PDF).executeTakeFirst())
      .toMatchObject({
        deleted_at: expect.any(Date),
      });
    expect(await clientRoot(client.page)).not.toContain(DRAFT_PDF);
  });
});

it("sent, the request's PDF is among the client's documents", async ({ login }) => {
  const firm = await login(firmUser, "admin", { viewport: viewports.desktop });
  await screenshotOnFailure(firm.page, "held-signature-pdf-sent", async () => {
    await uploadInDialog(firm.page, SENT_PDF);
    await firm.page.getByLabel("Title").fill("Engagement letter 2026");
    await firm.page.getByRole("button", { name: "Place fields" }).click();
    await firm.page.locator('[data-page="1"] canvas[data-rendered="true"]').waitFor();
    await firm.page.getByRole("group", { name: "Add a field" }).getByRole("button", { name: "Signature" }).click();
    await firm.page.getByText("1 field placed.").waitFor();
    await firm.page.getByRole("button", { name: "Send for signature" }).click();
    await toast(firm.page, "sent for signature");
  });
  const client = await login(maria, "client", { viewport: viewports.mobile });
  await screenshotOnFailure(client.page, "held-signature-pdf-client-after", async () => {
    await client.page.goto("/dashboard");
    await client.page.getByText(SENT_PDF).first().waitFor();
    await expectAccessibleAtBothWidths(client.page, "held-signature-pdf-client-after");
    expect((await client.page.textContent("main")) ?? "").not.toContain(DRAFT_PDF);
  });
});
