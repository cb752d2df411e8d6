/*
 * Issue 47, items 4 and 5, in Chromium (docs/security.md, "Round 4 (issue 47): mail under the
 * firm's name"): an owner whose address is unproven is told in Settings to verify it before
 * inviting; the firm's Remind and Resend buttons show the 429's own words. Each page passes axe at
 * 1280 and 390 px.
 */
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR } from "../../server/auth/rate-limit.ts";
import { VERIFY_FIRST } from "../../server/domains/account-contacts/messages.ts";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleAtBothWidths } from "../helpers/browser.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
let firmUser: UserFixture;

const it = browserTestFile({
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
  },
});

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first().waitFor({ timeout: 15_000 });

it("an owner whose address is unproven is told to verify it instead of an invitation form", async ({ login }) => {
  const owner = await createUser(server.db, { name: "Una Verified" });
  const { page } = await login(owner, "client");
  await page.goto("/settings");
  await page.getByText(VERIFY_FIRST).waitFor();
  expect(await page.getByRole("form", { name: "Invite a person" }).count()).toBe(0);
  await expectAccessibleAtBothWidths(page, "people-verify-first");

  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", owner.id).execute();
  await page.reload();
  await page.getByRole("form", { name: "Invite a person" }).waitFor();
  expect(await page.getByText(VERIFY_FIRST).count()).toBe(0);
}, 60_000);

it("the firm's Remind button shows why a second reminder within 24 hours is refused", async ({ login }) => {
  const signer = await createUser(server.db, { name: "Sam Signer" });
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawText("Engagement letter", { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  const form = new FormData();
  form.append("file", new Blob([(await doc.save()) as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "letter.pdf");
  const uploaded = await (await loginClient(server.url, signer)).request("POST", "/api/documents/upload", { body: form });
  expect(uploaded.status, uploaded.text).toBe(201);
  const created = await (
    await loginClient(server.url, firmUser, "admin")
  ).post("/api/admin/signature-requests", {
    account_id: signer.id,
    document_id: uploaded.body.id,
    title: "Letter",
    kind: "other",
    signers: [{ user_id: signer.id }],
    fields: [{ signer: 0, type: "signature", page: 1, x: 0.1, y: 0.8, width: 0.35, height: 0.06 }],
  });
  expect(created.status, created.text).toBe(201);

  const { page } = await login(firmUser, "admin");
  await page.goto(`/admin/accounts/${signer.id}?section=signatures`);
  await page.getByRole("button", { name: "Open Letter" }).click();
  const remind = page.getByRole("button", { name: "Remind" });
  await remind.click();
  await toast(page, "Reminder sent");
  await remind.click();
  await toast(page, "Everyone waiting was reminded less than 24 hours ago. Please try again in 24 hours.");
  await expectAccessibleAtBothWidths(page, "signature-remind-refused");
}, 60_000);

it("the firm's Resend button shows why an invitation resent too often is refused", async ({ login }) => {
  const api = await loginClient(server.url, firmUser, "admin");
  const created = await api.post("/api/admin/invitations", { name: "Nora Client", email: "nora.client@example.com" });
  expect(created.status, created.text).toBe(201);
  for (let i = 0; i < MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR; i++) {
    expect((await api.post(`/api/admin/invitations/${created.body.id}/resend`)).status).toBe(200);
  }
  const { page } = await login(firmUser, "admin");
  await page.goto("/admin/dashboard?tab=users");
  await page.getByRole("button", { name: "Resend the invitation to nora.client@example.com" }).click();
  await toast(page, "Too many invitations. Please try again in");
  await expectAccessibleAtBothWidths(page, "invitation-resend-refused");
}, 60_000);
