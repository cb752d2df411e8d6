/*
 * Issue 48, item 4, in Chromium against the real server, database and a test SMTP server: without
 * an identity-check provider a Form 8879 is signed at the firm's office, and the email and the page
 * say so from the start, where the page used to ask for e-sign consent first. The email names the
 * office's address, where to book a visit and where to read the form; the page shows the address,
 * a "Book a visit" link to the appointments and the form itself, and asks for no consent. Once the
 * firm checked a photo ID in person, the page's usual steps follow. At 390 and 1280 px, with axe.
 */
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleWithHeadings, screenshotOnFailure, viewports } from "../helpers/browser.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import type { TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const ADDRESS = "77 Harbor Lane, Suite 5, Portland, ME 04101";

let server: TestServer;
let smtp: TestSmtpServer;
let firmApi: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

const it = browserTestFile({
  server: () => ({ env: { SMTP_URL: smtp.url } }),
  setUp: async (started) => {
    server = started;
    const firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    firmApi = await loginClient(server.url, firmUser, "admin");
    expect((await firmApi.put("/api/admin/site-content/contact/address", { value: ADDRESS })).status).toBeLessThan(300);
  },
});

afterAll(async () => {
  await smtp?.stop();
});

async function formPdf(): Promise<Blob> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText("Form 8879 - IRS e-file Signature Authorization", { x: 60, y: 700, size: 14, font });
  return new Blob([(await doc.save()) as Uint8Array<ArrayBuffer>], { type: "application/pdf" });
}

/** A Form 8879 for `client` to sign, sent by the firm. */
async function send8879(client: UserFixture): Promise<string> {
  const form = new FormData();
  form.append("file", await formPdf(), "form-8879.pdf");
  const uploaded = await firmApi.request("POST", `/api/admin/users/${client.id}/documents`, { body: form });
  expect(uploaded.status, uploaded.text).toBe(201);
  const made = await firmApi.post("/api/admin/signature-requests", {
    account_id: client.id,
    document_id: uploaded.body.id,
    title: "2026 Form 8879",
    kind: "form_8879",
    signers: [{ user_id: client.id }],
    fields: [{ signer: 0, type: "signature", page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.05 }],
  });
  expect(made.status, made.text).toBe(201);
  return made.body.id as string;
}

describe("a Form 8879 without an identity-check provider", () => {
  for (const [label, viewport] of [
    ["phone", viewports.mobile],
    ["desktop", viewports.desktop],
  ] as const) {
    it(`on a ${label}, the email and the page say from the start it is signed at the office`, async ({ login }) => {
      const client = await createUser(server.db, { name: `Sam ${label === "phone" ? "Phone" : "Desktop"}` });
      const id = await send8879(client);

      const mail = await smtp.waitForMail(client.email, /Please sign at our office: 2026 Form 8879/, 20_000);
      expect(mail.text).not.toMatch(/phone or computer/);
      expect(mail.text).toContain("please come to our office with a photo ID");
      expect(mail.text).toContain(`Where to sign: ${ADDRESS}`);
      expect(mail.text).toContain(`Book a visit: ${server.url}/dashboard?tab=appointments`);
      expect(mail.text).toContain(`Read the form: ${server.url}/signatures/${id}`);

      const t = await login(client, "client", { viewport, reducedMotion: "reduce" });
      const { page } = t;
      page.setDefaultTimeout(15_000);
      await screenshotOnFailure(page, `form-8879-office-${label}`, async () => {
        await page.goto(`/signatures/${id}`);
        await page.getByRole("heading", { level: 2, name: "Sign this form at our office" }).waitFor();
        await page.getByText(ADDRESS).waitFor();
        // The form itself, to read before the visit; and no e-sign consent asked for first.
        await page.locator('[data-page="1"] canvas[data-rendered="true"]').waitFor();
        expect(await page.getByRole("heading", { name: "Agree to sign electronically" }).count()).toBe(0);
        expect(await page.getByRole("button", { name: "I agree" }).count()).toBe(0);
        await expectAccessibleWithHeadings(page, `form-8879-office-${label}`, label === "phone" ? "mobile" : "desktop");
        await page.getByRole("link", { name: "Book a visit" }).click();
        await page.waitForURL(/\/dashboard\?tab=appointments$/);
        await page.getByRole("tab", { name: "Appointments", selected: true }).waitFor();
      });
      t.expectNoConsoleErrors();

      // Checked in person at the office: the usual steps, consent first, follow on the same page.
      const checked = await firmApi.post(`/api/admin/signature-requests/${id}/signers/0/in-person`, { id_document: "Passport" });
      expect(checked.status, checked.text).toBe(200);
      await page.goto(`/signatures/${id}`);
      await page.getByRole("heading", { level: 2, name: "Agree to sign electronically" }).waitFor();
      expect(await page.getByRole("heading", { name: "Sign this form at our office" }).count()).toBe(0);
    }, 120_000);
  }
});
