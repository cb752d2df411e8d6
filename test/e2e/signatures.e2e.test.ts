/*
 * Signatures in Chromium against the real server, database and a test SMTP server (issue 35's
 * "Done when"): on a household's record at 1280 px the firm uploads a 2-page PDF, drags fields for
 * both spouses onto its pages (pdf.js draws them), moves one, and sends it in order. Maria, on a
 * 390 px phone, finds it first on her dashboard, agrees to the disclosure, enters the code emailed
 * to her, is told by the server which required field she left empty, fills it and signs by typing.
 * James, on a 390 px phone, ticks his checkbox and signs by drawing with the mouse; the sealed PDF
 * downloads, the verify endpoint and the public verify page say it is sealed here and unaltered,
 * and Maria downloads it too. Axe, heading order, no sideways scrolling and a screenshot at 390 and
 * 1280 px for every view. The steps share one server and run in order.
 */
import { readFile } from "node:fs/promises";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { browserTestFile } from "../helpers/browser-test.ts";
import { expectAccessibleWithHeadings, viewports } from "../helpers/browser.ts";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const TITLE = "2026 engagement letter";

let server: TestServer;
let smtp: TestSmtpServer;
let firmUser: UserFixture;
let maria: UserFixture;
let james: UserFixture;
let requestId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

const it = browserTestFile({
  server: () => ({ env: { SMTP_URL: smtp.url } }),
  setUp: async (started) => {
    server = started;
    firmUser = await createUser(server.db, { is_admin: true, name: "Office Admin" });
    maria = await createUser(server.db, { name: "Maria Garcia" });
    james = await createUser(server.db, { name: "James Garcia" });
    // A household of two: Maria's account, James a member of it with no account of his own.
    await makeHousehold(server.db, { owner: maria, member: james, name: "Garcia household", verifiedAt: new Date() });
  },
});

afterAll(async () => {
  await smtp?.stop();
});

async function twoPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Engagement letter - page ${n}`, { x: 72, y: 700, size: 18, font });
    page.drawText("Client name:", { x: 72, y: 560, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text }).first().waitFor({ timeout: 15_000 });

/** Every page of the PDF drawn. */
async function pagesDrawn(page: Page, count: number) {
  for (let n = 1; n <= count; n++) await page.locator(`[data-page="${n}"] canvas[data-rendered="true"]`).waitFor();
}

/** Drags from the middle of `from` to the point (fx, fy), as fractions, of `to`. */
async function dragTo(page: Page, from: Locator, to: Locator, fx: number, fy: number) {
  await to.scrollIntoViewIfNeeded();
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width * fx, b.y + b.height * fy, { steps: 8 });
  await page.mouse.up();
}

/** The code mailed to `email` for signing (the newest), as the signer would read it. */
async function mailedCode(email: string): Promise<string> {
  const mail = await smtp.waitForMail(email, /Your signing code: \d{6}/, 20_000);
  return /(\d{6})/.exec(mail.subject)![1]!;
}

async function verifyOnServer(bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "signed.pdf");
  const res = await fetch(new URL("/api/signatures/verify", server.url), { method: "POST", body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as { valid: boolean; sealed_here: boolean; request: { id: string; signers: Array<{ name: string }> } | null };
}

async function downloadSealed(page: Page): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the signed PDF" }).click()]);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  return bytes;
}

/** The signer's first two steps: the disclosure agreed to, then the emailed code. */
async function consentAndConfirm(page: Page, user: UserFixture, screenshots: boolean) {
  await page.getByRole("heading", { level: 2, name: "Agree to sign electronically" }).waitFor();
  await page.getByRole("region", { name: "Electronic records disclosure" }).getByText("Paper copies", { exact: false }).waitFor();
  if (screenshots) await expectAccessibleWithHeadings(page, "signatures-consent", "mobile");
  await page.getByRole("button", { name: "I agree" }).click();

  await page.getByRole("heading", { level: 2, name: "Confirm it's you" }).waitFor();
  await page.getByRole("button", { name: "Email me a code" }).click();
  await page.getByText("We sent a code to", { exact: false }).waitFor();
  const code = await mailedCode(user.email);
  // A wrong code first: the server's own words.
  await page.getByLabel("6-digit code").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("That code is not right", { exact: false }).waitFor();
  if (screenshots) await expectAccessibleWithHeadings(page, "signatures-code", "mobile");
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByRole("heading", { level: 2, name: "Review and sign" }).waitFor();
}

describe("signatures", () => {
  it("the firm uploads a 2-page PDF, places fields for both spouses and sends it in order", async ({ login }) => {
    const t = await login(firmUser, "admin", { viewport: viewports.desktop });
    const { page } = t;
    await page.goto(`/admin/accounts/${maria.id}?section=signatures`);
    await page.getByRole("heading", { level: 2, name: "Signatures" }).waitFor();
    await page.getByText("No signature requests for this client yet.").waitFor();
    await expectAccessibleWithHeadings(page, "signatures-firm-empty");

    await page.getByRole("button", { name: "Request signature" }).click();
    await page.getByLabel("Upload a PDF").setInputFiles({ name: "engagement-letter.pdf", mimeType: "application/pdf", buffer: await twoPagePdf() });
    await toast(page, "engagement-letter.pdf uploaded");
    expect(await page.getByLabel("PDF to sign").locator("option:checked").textContent()).toBe("engagement-letter.pdf");
    await page.getByLabel("Title").fill(TITLE);
    await page.getByLabel("In order", { exact: true }).check();
    expect(await page.getByRole("checkbox", { name: /Maria Garcia/ }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: /James Garcia/ }).isChecked()).toBe(true);
    // The signing order: the account's order to begin with; James moved up, then back down by keyboard.
    const order = page.getByRole("list", { name: "Signing order" });
    const signingOrder = async () => (await order.getByRole("listitem").allTextContents()).map((t) => t.trim());
    expect(await signingOrder()).toEqual(["1.Maria Garcia", "2.James Garcia"]);
    await order.getByRole("button", { name: "Move James Garcia up" }).click();
    expect(await signingOrder()).toEqual(["1.James Garcia", "2.Maria Garcia"]);
    // At the top its up button is disabled: the focus went to its down button, and Enter moves it back.
    expect(await order.getByRole("button", { name: "Move James Garcia down" }).evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    expect(await signingOrder()).toEqual(["1.Maria Garcia", "2.James Garcia"]);
    // Unchosen and chosen again, a signer goes last.
    await page.getByRole("checkbox", { name: /Maria Garcia/ }).uncheck();
    await expect.poll(() => order.isVisible()).toBe(false);
    await page.getByRole("checkbox", { name: /Maria Garcia/ }).check();
    expect(await signingOrder()).toEqual(["1.James Garcia", "2.Maria Garcia"]);
    await order.getByRole("button", { name: "Move Maria Garcia up" }).click();
    expect(await signingOrder()).toEqual(["1.Maria Garcia", "2.James Garcia"]);
    await page.getByLabel("Message (optional)").fill("Please sign where highlighted.");
    await expectAccessibleWithHeadings(page, "signatures-firm-request");

    await page.getByRole("button", { name: "Place fields" }).click();
    await pagesDrawn(page, 2);
    const palette = page.getByRole("group", { name: "Add a field" });
    const pageBox = (n: number) => page.locator(`[data-page="${n}"]`);

    // Maria (the first signer, chosen by default): her signature on page 2, a text field on page 1.
    await dragTo(page, palette.getByRole("button", { name: "Signature" }), pageBox(2), 0.3, 0.7);
    await dragTo(page, palette.getByRole("button", { name: "Text" }), pageBox(1), 0.4, 0.7);
    // James: his signature on page 2, a checkbox on page 1 made required, the date added by pressing.
    await page.getByRole("radio", { name: "James Garcia" }).check();
    await dragTo(page, palette.getByRole("button", { name: "Signature" }), pageBox(2), 0.3, 0.85);
    await dragTo(page, palette.getByRole("button", { name: "Checkbox" }), pageBox(1), 0.1, 0.8);
    await page.getByRole("group", { name: "Selected field" }).getByLabel("Required").check();
    await page.getByLabel("Page for new fields").selectOption("2");
    await palette.getByRole("button", { name: "Date signed" }).click();
    // Moved: Maria's text field dragged right by a tenth of the page.
    const text = page.getByRole("button", { name: "Text · Maria Garcia, page 1, required" });
    const box = (await text.boundingBox())!;
    const width = (await pageBox(1).boundingBox())!.width;
    await page.mouse.move(box.x + 10, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 10 + width * 0.1, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.getByText("5 fields placed.").waitFor();
    await expectAccessibleWithHeadings(page, "signatures-firm-fields");

    await page.getByRole("button", { name: "Send for signature" }).click();
    await toast(page, `“${TITLE}” sent for signature`);
    await page.getByRole("heading", { level: 2, name: TITLE }).waitFor();
    await page.getByRole("listitem", { name: "Maria Garcia" }).getByText("waiting").waitFor();
    await expectAccessibleWithHeadings(page, "signatures-firm-detail");

    const request = await server.db
      .selectFrom("signature_requests")
      .select(["id", "title", "signing_order", "status", "message"])
      .where("account_id", "=", maria.id)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ title: TITLE, signing_order: "sequential", status: "sent", message: "Please sign where highlighted." });
    requestId = request.id;
    const fields = await server.db
      .selectFrom("signature_fields")
      .select(["signer_position", "type", "page", "x", "y", "width", "height", "required"])
      .where("request_id", "=", requestId)
      .orderBy("ordinal")
      .execute();
    expect(fields.map((f) => [f.signer_position, f.type, f.page, f.required])).toEqual([
      [0, "signature", 2, true],
      [0, "text", 1, true],
      [1, "signature", 2, true],
      [1, "checkbox", 1, true],
      [1, "date", 2, true],
    ]);
    // Where they were dropped, as fractions of the page (centred on the pointer), the text field moved by 0.1.
    expect(fields[0]!.x).toBeCloseTo(0.3 - 0.15, 1);
    expect(fields[0]!.y).toBeCloseTo(0.7 - 0.03, 1);
    expect(fields[1]!.x).toBeCloseTo(0.4 - 0.15 + 0.1, 1);
    expect(fields[2]!.y).toBeCloseTo(0.85 - 0.03, 1);
    for (const f of fields) expect(f.x + f.width).toBeLessThanOrEqual(1);

    await page.getByRole("button", { name: "All signature requests" }).click();
    await page.getByRole("listitem", { name: TITLE }).getByText("0 of 2 signed", { exact: false }).waitFor();
    await expectAccessibleWithHeadings(page, "signatures-firm-list");
    t.expectNoConsoleErrors();
  }, 60_000);

  it("Maria, on her phone, finds it first on her dashboard, agrees, enters the emailed code, and signs by typing", async ({ login }) => {
    const t = await login(maria, "client", { viewport: viewports.mobile });
    const { page } = t;
    await page.goto("/dashboard");
    const card = page.getByRole("region", { name: "Signatures" });
    await card.getByText("To sign", { exact: true }).waitFor();
    await expectAccessibleWithHeadings(page, "signatures-dashboard-card", "mobile");

    await card.getByRole("link", { name: new RegExp(TITLE) }).click();
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/signatures/${requestId}`);
    await consentAndConfirm(page, maria, true);

    await pagesDrawn(page, 2);
    await page.getByLabel("Type your full name").fill("Maria Garcia");
    // Signed with the required text field empty: the server names it.
    await page.getByRole("button", { name: "Sign", exact: true }).click();
    await page.getByRole("alert").getByText("Fill the required fields: text on page 1", { exact: true }).waitFor();
    await page.getByRole("button", { name: /^Text on page 1, required: empty/ }).click();
    await page.getByRole("dialog").getByLabel("Text").fill("Garcia household");
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Text on page 1, required: Garcia household" }).waitFor();
    expect(await page.getByText("Fill the required fields", { exact: false }).count()).toBe(0);
    await expectAccessibleWithHeadings(page, "signatures-sign-typed", "mobile");

    await page.getByRole("button", { name: "Sign", exact: true }).click();
    await page.getByRole("heading", { level: 2, name: "You signed" }).waitFor();
    await page.getByText("Waiting for James Garcia to sign", { exact: false }).waitFor();
    await expectAccessibleWithHeadings(page, "signatures-signed-waiting", "mobile");
    // The wrong code's and the early signature's 422, asked for above.
    t.expectNoConsoleErrors({ allow: [/422 \(Unprocessable Entity\).*signatures\.(verify|sign)/] });
  }, 60_000);

  it("James, on his phone, ticks his checkbox, signs by drawing, downloads the sealed PDF and verifies it", async ({ login }) => {
    const t = await login(james, "client", { viewport: viewports.mobile });
    const { page } = t;
    await page.goto(`/signatures/${requestId}`);
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await consentAndConfirm(page, james, false);
    await pagesDrawn(page, 2);

    await page.getByRole("checkbox", { name: "Checkbox on page 1, required" }).click();
    expect(await page.getByRole("checkbox", { name: "Checkbox on page 1, required" }).getAttribute("aria-checked")).toBe("true");
    await page.getByLabel("Draw my signature").check();
    const canvas = page.getByTestId("signature-canvas");
    await canvas.scrollIntoViewIfNeeded();
    const pad = (await canvas.boundingBox())!;
    await page.mouse.move(pad.x + 30, pad.y + pad.height * 0.7);
    await page.mouse.down();
    for (const [fx, fy] of [
      [0.2, 0.3],
      [0.3, 0.75],
      [0.45, 0.25],
      [0.6, 0.7],
      [0.8, 0.4],
    ] as const) {
      await page.mouse.move(pad.x + pad.width * fx, pad.y + pad.height * fy, { steps: 6 });
    }
    await page.mouse.up();
    // The drawing shows in his signature field on the page.
    await page.getByRole("button", { name: "Signature on page 2: signed" }).locator("img").waitFor();
    await expectAccessibleWithHeadings(page, "signatures-sign-drawn", "mobile");

    await page.getByRole("button", { name: "Sign", exact: true }).click();
    await page.getByRole("heading", { level: 2, name: "Signed and sealed" }).waitFor();
    await expectAccessibleWithHeadings(page, "signatures-completed", "mobile");
    const sealed = await downloadSealed(page);
    const answer = await verifyOnServer(sealed);
    expect(answer).toMatchObject({ valid: true, sealed_here: true, request: { id: requestId } });
    expect(answer.request!.signers.map((s) => s.name)).toEqual(["Maria Garcia", "James Garcia"]);
    const stored = await server.db
      .selectFrom("signature_signers")
      .select("signature_type")
      .where("request_id", "=", requestId)
      .orderBy("position")
      .execute();
    expect(stored.map((s) => s.signature_type)).toEqual(["typed", "drawn"]);

    // The public verify page, from the completion screen, with the downloaded file.
    await page.getByRole("link", { name: "Verify a signed PDF" }).click();
    await page.getByRole("heading", { level: 1, name: "Verify a signed document" }).waitFor();
    await page.getByLabel("Signed PDF").setInputFiles({ name: "signed.pdf", mimeType: "application/pdf", buffer: sealed });
    await page.getByRole("button", { name: "Check the PDF" }).click();
    await page.getByRole("heading", { level: 2, name: "Sealed here and unaltered" }).waitFor();
    await page.getByRole("list", { name: "Signers" }).getByText("James Garcia").waitFor();
    // The request's raw id is not among what a person reads first; it is under Technical details, as on the certificate page.
    expect(await page.getByText(requestId).isVisible()).toBe(false);
    await page.getByText("Technical details").click();
    await page.getByText(requestId).waitFor();
    // The site's footer leads here too.
    expect(await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Verify a signed document" }).getAttribute("href")).toBe(
      "/signatures/verify",
    );
    await expectAccessibleWithHeadings(page, "signatures-verify", "mobile");
    // One byte changed: not what was sealed here.
    const changed = Buffer.from(sealed);
    changed[300] = changed[300]! ^ 0x01;
    await page.getByLabel("Signed PDF").setInputFiles({ name: "changed.pdf", mimeType: "application/pdf", buffer: changed });
    await page.getByRole("button", { name: "Check the PDF" }).click();
    await page.getByRole("heading", { level: 2, name: /Not a document sealed here|does not hold/ }).waitFor();
    // The wrong code's 422, asked for above.
    t.expectNoConsoleErrors({ allow: [/422 \(Unprocessable Entity\).*signatures\.verify/] });
  }, 60_000);

  it("Maria downloads the sealed PDF too, and the firm sees the request completed", async ({ login }) => {
    const t = await login(maria, "client", { viewport: viewports.mobile });
    await t.page.goto(`/signatures/${requestId}`);
    await t.page.getByRole("heading", { level: 2, name: "Signed and sealed" }).waitFor();
    expect((await verifyOnServer(await downloadSealed(t.page))).valid).toBe(true);

    const firm = await login(firmUser, "admin", { viewport: viewports.desktop });
    await firm.page.goto(`/admin/accounts/${maria.id}?section=signatures`);
    const row = firm.page.getByRole("listitem", { name: TITLE });
    await row.getByText("Completed", { exact: true }).waitFor();
    await row.getByText("2 of 2 signed", { exact: false }).waitFor();
    const [download] = await Promise.all([
      firm.page.waitForEvent("download"),
      row.getByRole("link", { name: `Download the sealed PDF of ${TITLE}` }).click(),
    ]);
    expect((await readFile((await download.path())!)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await expectAccessibleWithHeadings(firm.page, "signatures-firm-completed");
  }, 60_000);

  it("a Form 8879: the signer is told to sign at the office; the firm records the photo ID it checked, and she signs", async ({ login }) => {
    // Made over the API: the placing page is the first test's.
    const mariaApi = await loginClient(server.url, maria);
    const form = new FormData();
    form.append("file", new Blob([(await twoPagePdf()) as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "form-8879.pdf");
    const uploaded = await mariaApi.request("POST", "/api/documents/upload", { body: form });
    expect(uploaded.status, uploaded.text).toBe(201);
    const firmApi = await loginClient(server.url, firmUser, "admin");
    const created = await firmApi.post("/api/admin/signature-requests", {
      account_id: maria.id,
      document_id: uploaded.body.id,
      title: "2026 Form 8879",
      kind: "form_8879",
      signers: [{ user_id: maria.id }],
      fields: [{ signer: 0, type: "signature", page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;

    const client = await login(maria, "client", { viewport: viewports.mobile });
    await client.page.goto(`/signatures/${id}`);
    // Said from the start, before any consent (issue 48, item 4; test/e2e/form-8879-office.e2e.test.ts).
    await client.page.getByRole("heading", { level: 2, name: "Sign this form at our office" }).waitFor();
    await client.page.getByText("IRS e-file rules ask us to check your identity", { exact: false }).waitFor();
    await expectAccessibleWithHeadings(client.page, "signatures-8879-client", "mobile");

    const firm = await login(firmUser, "admin", { viewport: viewports.desktop });
    await firm.page.goto(`/admin/accounts/${maria.id}?section=signatures`);
    await firm.page.getByRole("button", { name: "Open 2026 Form 8879" }).click();
    await firm.page.getByText("no provider is configured", { exact: false }).waitFor();
    await firm.page.getByLabel("Photo ID checked").fill("Driver's license");
    await expectAccessibleWithHeadings(firm.page, "signatures-8879-firm");
    await firm.page.getByRole("button", { name: "Record ID check" }).click();
    await toast(firm.page, "Maria Garcia: signing in person, photo ID recorded");
    await firm.page.getByText("photo ID checked (Driver's license)", { exact: false }).waitFor();

    // No code to ask for: the firm's check is her identity step; she agrees to e-sign, and signs.
    await client.page.reload();
    await client.page.getByRole("button", { name: "I agree" }).click();
    await client.page.getByRole("heading", { level: 2, name: "Review and sign" }).waitFor();
    await client.page.getByLabel("Type your full name").fill("Maria Garcia");
    await client.page.getByRole("button", { name: "Sign", exact: true }).click();
    await client.page.getByRole("heading", { level: 2, name: "Signed and sealed" }).waitFor();
    const signer = await server.db.selectFrom("signature_signers").select("identity_method").where("request_id", "=", id).executeTakeFirstOrThrow();
    expect(signer.identity_method).toBe("in_person");
  }, 60_000);
});
