/*
 * Signatures (issue 35): the firm sends one of an account's PDFs for signature with fields placed
 * for each signer; each signer agrees to the ESIGN disclosure, proves who they are (an emailed code
 * or their own second factor; a Form 8879 needs KBA or the firm's in-person check), fills their
 * fields and signs, in order when the firm asks for it. The last signature seals the PDF: read
 * back here with pdf.js (the certificate page) and byte by byte (the PKCS#7 byte range), then
 * checked by POST /api/signatures/verify, which a one-byte change fails. Real server, real
 * database, real SMTP server for the codes and notices.
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import forge from "node-forge";
import { sql } from "kysely";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealingIdentity } from "../../server/domains/signatures/certificate.ts";
import { sealPdf } from "../../server/domains/signatures/seal.ts";
import { readByteRange, signatureHolds } from "../../server/domains/signatures/verify.ts";
import { createStaffMember, createUser, loginClient, nextSecondFactorCode, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient, ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const FIRM_EMAIL = "office@harborline.test";
const DISCLOSURE_VERSION = "2026-11-26";
/** A 1x1 PNG: a drawn signature as the phone's canvas would send it. */
const PNG_DOT = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

let smtp: TestSmtpServer;
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL } });
  const adminUser = await createUser(server.db, { is_admin: true });
  admin = await loginClient(server.url, adminUser, "admin");
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

async function makePdf(pages = 2, label = "Engagement letter"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${label} - page ${n}`, { x: 72, y: 700, size: 14, font });
  }
  return doc.save();
}

type Person = { user: UserFixture; api: ApiClient };

/** An account of one person (its owner), signed in. */
async function person(name: string, opts: { two_factor?: boolean } = {}): Promise<Person> {
  const user = await createUser(server.db, { name, two_factor: opts.two_factor });
  return { user, api: await loginClient(server.url, user) };
}

/** A married couple's household: the account is the first spouse's, the second is a member of it and has switched to it. */
async function household(): Promise<{ accountId: string; maria: Person; jose: Person }> {
  const maria = await person("Maria Garcia");
  const jose = await person("Jose Garcia");
  await server.db.insertInto("account_contacts").values({ account_id: maria.user.id, user_id: jose.user.id, role: "member" }).execute();
  const switched = await jose.api.post("/api/accounts/switch", { account_id: maria.user.id });
  expect(switched.status, switched.text).toBe(200);
  return { accountId: maria.user.id, maria, jose };
}

async function uploadPdf(api: ApiClient, bytes: Uint8Array, name = "letter.pdf"): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), name);
  const res = await api.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const signatureField = (signer: number, page = 1, y = 0.8) => ({ signer, type: "signature", page, x: 0.1, y, width: 0.35, height: 0.06 });

/** A one-page "Letter" for one signer with one signature field: the body tests vary a part of. */
const letter = (accountId: string, documentId: string, signerId: string) => ({
  account_id: accountId,
  document_id: documentId,
  title: "Letter",
  kind: "other",
  signers: [{ user_id: signerId }],
  fields: [signatureField(0)],
});

async function createRequest(body: Record<string, unknown>): Promise<ApiResponse> {
  const res = await admin.post("/api/admin/signature-requests", body);
  expect(res.status, res.text).toBe(201);
  return res;
}

/** The signing code mailed to `email` (the newest), as the signer would read it. */
async function mailedCode(email: string): Promise<string> {
  const mail = await smtp.waitForMail(email, /Your signing code: \d{6}/);
  const code = /(\d{6})/.exec(mail.subject)![1]!;
  // A later code for the same person is a new message: forget this one.
  smtp.messages.splice(smtp.messages.indexOf(mail), 1);
  return code;
}

async function consentAndVerify(signer: Person, id: string): Promise<void> {
  const consent = await signer.api.post(`/api/signature-requests/${id}/consent`, { disclosure_version: DISCLOSURE_VERSION });
  expect(consent.status, consent.text).toBe(200);
  expect(consent.body.me.consented).toBe(true);
  const start = await signer.api.post(`/api/signature-requests/${id}/verify/start`);
  expect(start.status, start.text).toBe(200);
  expect(start.body).toMatchObject({ method: "email_code" });
  const verified = await signer.api.post(`/api/signature-requests/${id}/verify`, { code: await mailedCode(signer.user.email) });
  expect(verified.status, verified.text).toBe(200);
  expect(verified.body.identity_method).toBe("email_code");
}

async function download(api: ApiClient, id: string): Promise<Buffer> {
  const res = await fetch(new URL(`/api/signature-requests/${id}/document`, api.baseUrl), {
    headers: { Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; "), Origin: api.baseUrl },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return Buffer.from(await res.arrayBuffer());
}

async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await pdf.destroy();
  return pages;
}

async function verifyPdf(bytes: Uint8Array): Promise<ApiResponse> {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "signed.pdf");
  const anyone = new (admin.constructor as new (url: string) => ApiClient)(server.url);
  return anyone.request("POST", "/api/signatures/verify", { body: form });
}

describe("the firm's requests", () => {
  it("creates one with signers among the account's people and fields placed as fractions of a page, and lists it", async () => {
    const { accountId, maria, jose } = await household();
    const documentId = await uploadPdf(maria.api, await makePdf(2));
    const created = await createRequest({
      account_id: accountId,
      document_id: documentId,
      title: "2026 engagement letter",
      kind: "engagement_letter",
      signers: [{ user_id: maria.user.id }, { user_id: jose.user.id }],
      order: "parallel",
      due_date: "2099-01-31",
      message: "Please sign both pages",
      fields: [
        signatureField(0),
        signatureField(1, 2),
        { signer: 0, type: "date", page: 1, x: 0.6, y: 0.8, width: 0.2, height: 0.04, required: true },
      ],
    });
    expect(created.body).toMatchObject({
      account_id: accountId,
      document_id: documentId,
      title: "2026 engagement letter",
      kind: "engagement_letter",
      order: "parallel",
      status: "sent",
      due_date: "2099-01-31",
      sealed_document_id: null,
      remote_signing_note: null,
    });
    expect(created.body.signers.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ["Maria Garcia", "pending"],
      ["Jose Garcia", "pending"],
    ]);
    expect(created.body.fields).toHaveLength(3);
    expect(created.body.fields[1]).toMatchObject({
      signer: 1,
      type: "signature",
      page: 2,
      x: 0.1,
      y: 0.8,
      width: 0.35,
      height: 0.06,
      required: true,
      value: null,
    });
    expect(created.body.events.map((e: { action: string }) => e.action)).toEqual(["create"]);
    const id = created.body.id as string;

    // Both are mailed at once (parallel order), with a link to the signing page.
    const mail = await smtp.waitForMail(jose.user.email, /Please sign: 2026 engagement letter/);
    expect(mail.text).toContain(`/signatures/${id}`);
    await smtp.waitForMail(maria.user.email, /Please sign: 2026 engagement letter/);

    const listed = await admin.get(`/api/admin/signature-requests?account_id=${accountId}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((r: { id: string }) => r.id)).toEqual([id]);
    const byStatus = await admin.get(`/api/admin/signature-requests?account_id=${accountId}&status=completed`);
    expect(byStatus.body).toEqual([]);
    const one = await admin.get(`/api/admin/signature-requests/${id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.id).toBe(id);
    expect((await admin.get(`/api/admin/signature-requests/${randomUUID()}`)).status).toBe(404);
  });

  it("refuses what cannot be signed, each with a precise detail", async () => {
    const { accountId, maria } = await household();
    const stranger = await person("Stranger Danger");
    const pdf = await uploadPdf(maria.api, await makePdf(1));
    const base = letter(accountId, pdf, maria.user.id);
    const refused = async (body: Record<string, unknown>, status: number, detail: RegExp) => {
      const res = await admin.post("/api/admin/signature-requests", { ...base, ...body });
      expect(res.status, res.text).toBe(status);
      expect(res.body.detail).toMatch(detail);
    };
    await refused({ signers: [{ user_id: stranger.user.id }] }, 422, /one of the account's people/);
    await refused({ signers: [{ user_id: maria.user.id }, { user_id: maria.user.id }] }, 422, /only once/);
    await refused({ fields: [{ ...signatureField(0), page: 2 }] }, 422, /page the PDF does not have \(page 2; it has 1\)/);
    await refused({ fields: [{ ...signatureField(0), x: 0.9, width: 0.3 }] }, 422, /within its page/);
    await refused({ fields: [{ ...signatureField(0), x: 1.5 }] }, 422, /x must be at most 1/);
    await refused({ fields: [signatureField(1)] }, 422, /index of one of the signers/);
    await refused({ fields: [{ ...signatureField(0), type: "text" }] }, 422, /at least one signature field/);
    await refused({ kind: "lease" }, 422, /kind must be/);
    await refused({ due_date: "2001-01-01" }, 422, /today or later/);
    // Another account's document is not found in this one.
    await refused({ document_id: await uploadPdf(stranger.api, await makePdf(1)) }, 404, /Document not found/);
    // Only a PDF.
    const form = new FormData();
    form.append("file", new Blob(["just text"], { type: "text/plain" }), "notes.txt");
    const text = await maria.api.request("POST", "/api/documents/upload", { body: form });
    await refused({ document_id: text.body.id }, 422, /Only a PDF/);
  });

  it("keeps staff to their right and their assigned accounts", async () => {
    const { accountId, maria } = await household();
    const pdf = await uploadPdf(maria.api, await makePdf(1));
    const body = letter(accountId, pdf, maria.user.id);
    const noRight = await loginClient(server.url, await createStaffMember(server.db, "staff", ["all_clients", "documents"]), "admin");
    const res = await noRight.post("/api/admin/signature-requests", body);
    expect(res.status, res.text).toBe(403);
    expect(res.body.detail).toBe("You need the requests right for this");
    const unassigned = await loginClient(server.url, await createStaffMember(server.db, "staff", ["requests"]), "admin");
    expect((await unassigned.post("/api/admin/signature-requests", body)).status).toBe(404);
    const id = (await createRequest(body)).body.id as string;
    expect((await unassigned.get(`/api/admin/signature-requests/${id}`)).status).toBe(404);
    expect((await unassigned.post(`/api/admin/signature-requests/${id}/void`, {})).status).toBe(404);
    expect((await unassigned.get(`/api/admin/signature-requests?account_id=${accountId}`)).status).toBe(404);
    expect((await unassigned.get(`/api/admin/signature-requests`)).body.map((r: { id: string }) => r.id)).not.toContain(id);
  });
});

describe("the signer", () => {
  it("reaches only their current account's requests and only their own fields; another account's request is a 404", async () => {
    const { accountId, maria, jose } = await household();
    const pdf = await uploadPdf(maria.api, await makePdf(2));
    const id = (
      await createRequest({
        account_id: accountId,
        document_id: pdf,
        title: "Joint letter",
        kind: "engagement_letter",
        signers: [{ user_id: maria.user.id }, { user_id: jose.user.id }],
        fields: [signatureField(0), { ...signatureField(1, 2) }, { signer: 1, type: "initials", page: 1, x: 0.5, y: 0.5, width: 0.1, height: 0.05 }],
      })
    ).body.id as string;

    const own = await jose.api.get(`/api/signature-requests/${id}`);
    expect(own.status, own.text).toBe(200);
    expect(own.body.fields.map((f: { signer: number; type: string }) => [f.signer, f.type])).toEqual([
      [1, "signature"],
      [1, "initials"],
    ]);
    expect(own.body.me).toMatchObject({
      index: 1,
      status: "pending",
      consented: false,
      identity_verified: false,
      may_sign: true,
      identity_methods: ["email_code"],
    });
    expect(own.body.disclosure.version).toBe(DISCLOSURE_VERSION);
    expect(own.body.disclosure.text).toMatch(/paper copy/);
    expect(own.body.disclosure.text).toMatch(/withdraw/);
    expect(own.body.document_name).toBe("letter.pdf");
    const list = await maria.api.get("/api/signature-requests");
    expect(list.body.map((r: { id: string }) => r.id)).toContain(id);
    expect(list.body.find((r: { id: string }) => r.id === id).fields).toHaveLength(1);
    expect((await download(jose.api, id)).subarray(0, 5).toString()).toBe("%PDF-");

    // Someone of another account: every path answers as for a request that does not exist.
    const outsider = await person("Outsider");
    expect((await outsider.api.get("/api/signature-requests")).body).toEqual([]);
    for (const [method, path, body] of [
      ["GET", `/api/signature-requests/${id}`, undefined],
      ["GET", `/api/signature-requests/${id}/document`, undefined],
      ["POST", `/api/signature-requests/${id}/consent`, { disclosure_version: DISCLOSURE_VERSION }],
      ["POST", `/api/signature-requests/${id}/decline`, { reason: "no" }],
      ["POST", `/api/signature-requests/${id}/verify/start`, undefined],
      ["POST", `/api/signature-requests/${id}/verify`, { code: "123456" }],
      ["POST", `/api/signature-requests/${id}/sign`, { signature: { type: "typed", text: "Outsider" } }],
    ] as const) {
      const res = await outsider.api.request(method, path, { json: body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // Jose back in his own account: Maria's request is not in it.
    await jose.api.post("/api/accounts/switch", { account_id: jose.user.id });
    expect((await jose.api.get(`/api/signature-requests/${id}`)).status).toBe(404);
    // Opening the request is recorded, once per signer (Maria only listed hers: not opened).
    await jose.api.post("/api/accounts/switch", { account_id: accountId });
    await jose.api.get(`/api/signature-requests/${id}`);
    const events = (await admin.get(`/api/admin/signature-requests/${id}`)).body.events as Array<{ action: string; signer: number | null }>;
    expect(events.filter((e) => e.action === "view").map((e) => e.signer)).toEqual([1]);
  });

  it("is refused before consent and before the identity check, names required fields left empty, and signs once", async () => {
    const solo = await person("Rowan Ellis");
    const pdf = await uploadPdf(solo.api, await makePdf(1));
    const created = await createRequest({
      account_id: solo.user.id,
      document_id: pdf,
      title: "Engagement letter 2027",
      kind: "engagement_letter",
      signers: [{ user_id: solo.user.id }],
      fields: [
        signatureField(0),
        { signer: 0, type: "text", page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.04, required: true },
        { signer: 0, type: "checkbox", page: 1, x: 0.1, y: 0.2, width: 0.03, height: 0.03, required: true },
        { signer: 0, type: "text", page: 1, x: 0.5, y: 0.1, width: 0.3, height: 0.04, required: false },
      ],
    });
    const id = created.body.id as string;
    const [, textField, checkbox, optional] = created.body.fields as Array<{ id: string }>;
    const sign = (body: Record<string, unknown>) => solo.api.post(`/api/signature-requests/${id}/sign`, body);
    const typed = { type: "typed", text: "Rowan Ellis" };

    let res = await sign({ values: { [textField!.id]: "Acme LLC", [checkbox!.id]: "true" }, signature: typed });
    expect(res.status, res.text).toBe(409);
    expect(res.body.detail).toMatch(/Agree to the electronic records disclosure first/);

    res = await solo.api.post(`/api/signature-requests/${id}/consent`, { disclosure_version: "2001-01-01" });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/not the current one/);
    res = await solo.api.post(`/api/signature-requests/${id}/consent`, { disclosure_version: DISCLOSURE_VERSION });
    expect(res.status, res.text).toBe(200);
    const consent = await server.db.selectFrom("esign_consents").select(["disclosure_version", "ip"]).where("user_id", "=", solo.user.id).execute();
    expect(consent).toHaveLength(1);
    expect(consent[0]!.disclosure_version).toBe(DISCLOSURE_VERSION);

    res = await sign({ values: { [textField!.id]: "Acme LLC", [checkbox!.id]: "true" }, signature: typed });
    expect(res.status, res.text).toBe(403);
    expect(res.body.detail).toMatch(/Confirm who you are first/);

    // A wrong code is refused; the right one, mailed, passes.
    res = await solo.api.post(`/api/signature-requests/${id}/verify/start`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.sent_to).toMatch(/^c\*+@example\.com$/);
    const again = await solo.api.post(`/api/signature-requests/${id}/verify/start`);
    expect(again.status).toBe(429);
    const code = await mailedCode(solo.user.email);
    const wrong = code === "000000" ? "111111" : "000000";
    res = await solo.api.post(`/api/signature-requests/${id}/verify`, { code: wrong });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/not right/);
    res = await solo.api.post(`/api/signature-requests/${id}/verify`, { code });
    expect(res.status, res.text).toBe(200);

    res = await sign({ values: { [optional!.id]: "" }, signature: typed });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(`Fill the required fields: text on page 1 (${textField!.id}), checkbox on page 1 (${checkbox!.id})`);
    res = await sign({ values: { [randomUUID()]: "x" }, signature: typed });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/not yours/);
    res = await sign({ values: { [textField!.id]: "Acme LLC", [checkbox!.id]: "maybe" }, signature: typed });
    expect(res.status).toBe(422);
    res = await sign({
      values: { [textField!.id]: "Acme LLC", [checkbox!.id]: "true" },
      signature: { type: "drawn", image: "data:image/gif;base64,AAAA" },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/PNG/);
    res = await sign({
      values: { [textField!.id]: "Acme LLC", [checkbox!.id]: "true" },
      signature: { type: "drawn", image: "data:image/png;base64,iVBORw0KGgoAAAAAAAAA" },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/not a PNG image that can be read/);

    res = await sign({ values: { [textField!.id]: "Acme LLC", [checkbox!.id]: "true" }, signature: typed });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("completed");
    expect(res.body.me.status).toBe("signed");
    expect(res.body.fields.find((f: { id: string }) => f.id === textField!.id).value).toBe("Acme LLC");

    res = await sign({ values: { [textField!.id]: "Acme LLC", [checkbox!.id]: "true" }, signature: typed });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/no longer open/);

    // Every step is in the activity trail.
    const trail = await server.db
      .selectFrom("activity_events")
      .select("action")
      .where("target_id", "=", id)
      .orderBy("id")
      .execute()
      .then((rows) => rows.map((r) => r.action));
    expect(trail).toEqual(["signature.create", "signature.consent", "signature.verify", "signature.sign", "signature.complete"]);
  });

  it("passes the identity check with their own second factor", async () => {
    const careful = await person("Careful Client", { two_factor: true });
    const pdf = await uploadPdf(careful.api, await makePdf(1));
    const id = (await createRequest(letter(careful.user.id, pdf, careful.user.id))).body.id as string;
    expect((await careful.api.get(`/api/signature-requests/${id}`)).body.me.identity_methods).toEqual(["email_code", "second_factor"]);
    // Guessing is cut off after 5 wrong codes, even the right one then refused, until a new code is asked for.
    for (let i = 0; i < 5; i++) expect((await careful.api.post(`/api/signature-requests/${id}/verify`, { code: "abcdef" })).status).toBe(422);
    const locked = await careful.api.post(`/api/signature-requests/${id}/verify`, { code: nextSecondFactorCode(careful.user, server.clock.now()) });
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toMatch(/Too many wrong codes/);
    expect((await careful.api.post(`/api/signature-requests/${id}/verify/start`)).status).toBe(200);
    const res = await careful.api.post(`/api/signature-requests/${id}/verify`, { code: nextSecondFactorCode(careful.user, server.clock.now()) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.identity_method).toBe("second_factor");
  });
});

describe("two spouses in sequential order", () => {
  it("each signs their own fields in turn; the last signature seals the PDF with a certificate page and a PKCS#7 signature over the whole file", async () => {
    const { accountId, maria, jose } = await household();
    const original = await makePdf(2, "Form 1040 engagement");
    const pdf = await uploadPdf(maria.api, original, "engagement.pdf");
    const created = await createRequest({
      account_id: accountId,
      document_id: pdf,
      title: "Joint engagement letter",
      kind: "engagement_letter",
      signers: [{ user_id: maria.user.id }, { user_id: jose.user.id }],
      order: "sequential",
      fields: [
        signatureField(0, 2, 0.7),
        { signer: 0, type: "name", page: 2, x: 0.1, y: 0.78, width: 0.3, height: 0.04 },
        signatureField(1, 2, 0.85),
        { signer: 1, type: "date", page: 2, x: 0.6, y: 0.85, width: 0.2, height: 0.04 },
      ],
    });
    const id = created.body.id as string;
    // Only Maria is asked first.
    await smtp.waitForMail(maria.user.email, /Please sign: Joint engagement letter/);
    expect(smtp.messages.some((m) => m.to.includes(jose.user.email) && /Please sign: Joint/.test(m.subject))).toBe(false);

    await consentAndVerify(jose, id);
    expect((await jose.api.get(`/api/signature-requests/${id}`)).body.me.may_sign).toBe(false);
    let res = await jose.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "drawn", image: PNG_DOT } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/not your turn/);

    await consentAndVerify(maria, id);
    // Typed as she writes it: Vietnamese and Polish letters are printed as written, a character the
    // fonts lack as "?" (server/pdf-fonts.ts).
    res = await maria.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "typed", text: "María Nguyễn-Garcia Łódź 王" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("partially_signed");
    // Now it is Jose's turn, and he is told.
    await smtp.waitForMail(jose.user.email, /Please sign: Joint engagement letter/);
    res = await jose.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "drawn", image: PNG_DOT } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("completed");
    expect(res.body.sealed_document_id).not.toBeNull();

    const sealed = await download(jose.api, id);
    expect(Buffer.compare(sealed, Buffer.from(original))).not.toBe(0);

    // The certificate page, read with a PDF parser.
    const pages = await pdfText(sealed);
    expect(pages).toHaveLength(3);
    expect(pages[1]).toContain("Maria Garcia");
    expect(pages[1]).toContain("María Nguyễn-Garcia Łódź ?");
    const certificate = pages[2]!;
    for (const expected of [
      "Signature certificate",
      "Joint engagement letter",
      id,
      "Maria Garcia",
      maria.user.email,
      "Jose Garcia",
      jose.user.email,
      "email code",
      `version ${DISCLOSURE_VERSION}`,
      "IP address: 127.0.0.1",
      "SHA-256 of the original",
      (await server.db.selectFrom("signature_requests").select("original_sha256").where("id", "=", id).executeTakeFirstOrThrow()).original_sha256,
      "Viewed:",
      "Signed:",
      'typed "María Nguyễn-Garcia Łódź ?"',
      "drawn",
    ]) {
      expect(certificate, expected).toContain(expected);
    }

    // The signature's byte range covers the whole file but the signature's own <hex>.
    const text = sealed.toString("latin1");
    const match = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
    const [a, b, c, d] = match.slice(1).map(Number) as [number, number, number, number];
    expect(a).toBe(0);
    expect(c + d).toBe(sealed.length);
    expect(sealed[b]).toBe("<".charCodeAt(0));
    expect(sealed[c - 1]).toBe(">".charCodeAt(0));
    expect(text.slice(b + 1, c - 1)).toMatch(/^[0-9a-f]+$/);
    expect(text.slice(0, b)).toMatch(/\/SubFilter \/adbe\.pkcs7\.detached/);

    // It is in the account's "Signed documents" folder, recorded with its hash.
    const stored = await server.db
      .selectFrom("documents")
      .innerJoin("folders", "folders.id", "documents.folder_id")
      .select(["documents.id", "documents.sha256", "folders.name", "documents.retained_until"])
      .where("documents.id", "=", res.body.sealed_document_id)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe("Signed documents");
    expect(stored.retained_until!.getUTCFullYear()).toBe(new Date().getUTCFullYear() + 3);

    // The verify page: unaltered, with the request and its signers.
    const verified = await verifyPdf(sealed);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ valid: true, sealed_here: true, signature_intact: true });
    expect(verified.body.request).toMatchObject({ id, title: "Joint engagement letter", kind: "engagement_letter" });
    expect(verified.body.request.signers.map((s: { name: string }) => s.name)).toEqual(["Maria Garcia", "Jose Garcia"]);

    // One byte changed (a letter of the visible text): not the file sealed here, and its signature breaks.
    const changed = Buffer.from(sealed);
    const at = changed.indexOf("Form 1040", 0, "latin1");
    const position = at >= 0 ? at : 200;
    changed[position] = changed[position]! ^ 0x01;
    const tampered = await verifyPdf(changed);
    expect(tampered.status, tampered.text).toBe(200);
    expect(tampered.body).toMatchObject({ valid: false, sealed_here: false, signature_intact: false, request: null });
    // A byte of the signature itself changed: the hash is not on record and the signature does not hold.
    const badSignature = Buffer.from(sealed);
    badSignature[b + 40] = badSignature[b + 40] === 0x61 ? 0x62 : 0x61;
    expect((await verifyPdf(badSignature)).body).toMatchObject({ valid: false, signature_intact: false });
    // Any other PDF: not sealed here.
    expect((await verifyPdf(original)).body).toMatchObject({ valid: false, sealed_here: false });
    const none = await new (admin.constructor as new (url: string) => ApiClient)(server.url).request("POST", "/api/signatures/verify", { json: {} });
    expect(none.status).toBe(422);

    // Everyone is told, the firm too.
    const done = await smtp.waitForMail(maria.user.email, /Signed: Joint engagement letter/);
    expect(done.to).toEqual(expect.arrayContaining([maria.user.email, jose.user.email, FIRM_EMAIL]));

    // The original and the sealed file are locked against rename, move and trash.
    for (const documentId of [pdf, stored.id]) {
      const rename = await maria.api.patch(`/api/documents/${documentId}`, { name: "other.pdf" });
      expect(rename.status, rename.text).toBe(409);
      expect(rename.body.detail).toMatch(/kept unchanged until/);
      const trash = await maria.api.delete(`/api/documents/${documentId}`);
      expect(trash.status, trash.text).toBe(409);
      const firmTrash = await admin.delete(`/api/admin/documents/${documentId}`);
      expect(firmTrash.status, firmTrash.text).toBe(409);
    }
    // The database refuses it too, whatever path asks.
    await expect(server.db.updateTable("documents").set({ original_filename: "x.pdf" }).where("id", "=", pdf).execute()).rejects.toThrow(
      /retained until/,
    );

    // The firm's view: both signed, the audit events in order.
    const view = await admin.get(`/api/admin/signature-requests/${id}`);
    expect(view.body.signers.map((s: { status: string }) => s.status)).toEqual(["signed", "signed"]);
    expect(view.body.events.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(["create", "consent", "verify", "sign", "complete"]),
    );
  });
});

describe("the firm's Inbox", () => {
  type Item = {
    id: string;
    kind: string;
    client_id: string;
    subject_id: string;
    actor_name: string | null;
    summary: Record<string, unknown>;
    read: boolean;
  };

  /** The Inbox's items about one signature request, newest first. */
  async function itemsAbout(requestId: string): Promise<Item[]> {
    const res = await admin.get("/api/admin/inbox?limit=100");
    expect(res.status, res.text).toBe(200);
    return (res.body.items as Item[]).filter((item) => item.subject_id === requestId);
  }

  async function readAll(requestId: string): Promise<void> {
    const ids = (await itemsAbout(requestId)).filter((item) => !item.read).map((item) => item.id);
    if (ids.length > 0) expect((await admin.post("/api/admin/inbox/read", { ids })).status).toBe(200);
  }

  it("hears of a signer's first view, each signature and the completed request, about the account", async () => {
    const { accountId, maria, jose } = await household();
    const pdf = await uploadPdf(maria.api, await makePdf(1), "joint.pdf");
    const id = (
      await createRequest({
        account_id: accountId,
        document_id: pdf,
        title: "Joint Form 8879 letter",
        kind: "engagement_letter",
        signers: [{ user_id: maria.user.id }, { user_id: jose.user.id }],
        order: "parallel",
        fields: [signatureField(0), signatureField(1, 1, 0.9)],
      })
    ).body.id as string;
    // Sending it is the firm's own doing: nothing arrives.
    expect(await itemsAbout(id)).toEqual([]);

    expect((await maria.api.get(`/api/signature-requests/${id}`)).status).toBe(200);
    let items = await itemsAbout(id);
    expect(items).toMatchObject([
      { kind: "signature_viewed", client_id: accountId, actor_name: "Maria Garcia", summary: { title: "Joint Form 8879 letter" }, read: false },
    ]);
    await readAll(id);
    // Only the first view: opening it again, or its document, tells nobody.
    expect((await maria.api.get(`/api/signature-requests/${id}`)).status).toBe(200);
    await download(maria.api, id);
    expect((await itemsAbout(id)).filter((item) => !item.read)).toEqual([]);

    await consentAndVerify(maria, id);
    expect((await maria.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "typed", text: "Maria Garcia" } })).status).toBe(200);
    items = (await itemsAbout(id)).filter((item) => !item.read);
    expect(items).toMatchObject([{ kind: "signature_signed", actor_name: "Maria Garcia", client_id: accountId }]);
    await readAll(id);

    // Jose opens, then signs last: the request's unread item says where it stands now, completed.
    expect((await jose.api.get(`/api/signature-requests/${id}`)).status).toBe(200);
    items = (await itemsAbout(id)).filter((item) => !item.read);
    expect(items).toMatchObject([{ kind: "signature_viewed", actor_name: "Jose Garcia" }]);
    await consentAndVerify(jose, id);
    const signed = await jose.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "drawn", image: PNG_DOT } });
    expect(signed.body.status).toBe("completed");
    items = (await itemsAbout(id)).filter((item) => !item.read);
    expect(items).toMatchObject([
      { kind: "signature_completed", actor_name: "Jose Garcia", client_id: accountId, summary: { title: "Joint Form 8879 letter" } },
    ]);
    // Three items in all, read or not: the two read ones stay as they were.
    expect((await itemsAbout(id)).map((item) => item.kind)).toEqual(["signature_completed", "signature_signed", "signature_viewed"]);
  });

  it("hears of a decline with its reason; staff without the requests right do not see signature items", async () => {
    const solo = await person("Dana Decliner");
    const pdf = await uploadPdf(solo.api, await makePdf(1));
    const id = (
      await createRequest({
        account_id: solo.user.id,
        document_id: pdf,
        title: "Letter to decline",
        kind: "other",
        signers: [{ user_id: solo.user.id }],
        fields: [signatureField(0)],
      })
    ).body.id as string;
    expect((await solo.api.post(`/api/signature-requests/${id}/decline`, { reason: "Wrong year" })).status).toBe(200);
    expect(await itemsAbout(id)).toMatchObject([
      {
        kind: "signature_declined",
        actor_name: "Dana Decliner",
        client_id: solo.user.id,
        summary: { title: "Letter to decline", reason: "Wrong year" },
      },
    ]);
    const staff = await createStaffMember(server.db, "staff", ["all_clients", "documents"]);
    const staffApi = await loginClient(server.url, staff, "admin");
    const page = await staffApi.get("/api/admin/inbox?limit=100");
    expect(page.status, page.text).toBe(200);
    expect((page.body.items as Item[]).filter((item) => item.subject_id === id)).toEqual([]);
  });
});

describe("ending a request", () => {
  async function single(kind = "other") {
    const solo = await person("Sam Signer");
    const pdf = await uploadPdf(solo.api, await makePdf(1));
    const id = (
      await createRequest({
        account_id: solo.user.id,
        document_id: pdf,
        title: `${kind} to sign`,
        kind,
        signers: [{ user_id: solo.user.id }],
        fields: [signatureField(0)],
      })
    ).body.id as string;
    return { solo, id, pdf };
  }

  it("decline ends it and the firm is told", async () => {
    const { solo, id } = await single();
    expect((await solo.api.post(`/api/signature-requests/${id}/decline`, { reason: "" })).status).toBe(422);
    const res = await solo.api.post(`/api/signature-requests/${id}/decline`, { reason: "The fee is not what we agreed" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "declined", me: { status: "declined" } });
    const mail = await smtp.waitForMail(FIRM_EMAIL, /Declined: other to sign/);
    expect(mail.text).toContain("The fee is not what we agreed");
    const sign = await solo.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "typed", text: "Sam" } });
    expect(sign.status).toBe(409);
    expect((await admin.post(`/api/admin/signature-requests/${id}/void`, {})).status).toBe(409);
    expect((await admin.get(`/api/admin/signature-requests/${id}`)).body.signers[0].decline_reason).toBe("The fee is not what we agreed");
  });

  it("void ends it, the signer is told; reminders go only to a request still open", async () => {
    const { solo, id, pdf } = await single();
    // While the request is open its original is held as it is.
    const held = await solo.api.patch(`/api/documents/${pdf}`, { name: "renamed.pdf" });
    expect(held.status, held.text).toBe(409);
    const remind = await admin.post(`/api/admin/signature-requests/${id}/remind`);
    expect(remind.status, remind.text).toBe(200);
    await smtp.waitForMail(solo.user.email, /Reminder: Please sign: other to sign/);
    const res = await admin.post(`/api/admin/signature-requests/${id}/void`, { reason: "Wrong year" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "voided", void_reason: "Wrong year" });
    await smtp.waitForMail(solo.user.email, /Withdrawn: other to sign/);
    for (const [path, body] of [
      ["consent", { disclosure_version: DISCLOSURE_VERSION }],
      ["verify/start", undefined],
      ["sign", { signature: { type: "typed", text: "Sam" } }],
      ["decline", { reason: "late" }],
    ] as const) {
      const refused = await solo.api.post(`/api/signature-requests/${id}/${path}`, body);
      expect(refused.status, path).toBe(409);
      expect(refused.body.detail).toMatch(/no longer open/);
    }
    expect((await admin.post(`/api/admin/signature-requests/${id}/remind`)).status).toBe(409);
    expect((await admin.get(`/api/admin/signature-requests?status=voided`)).body.map((r: { id: string }) => r.id)).toContain(id);
    // Voided, the request no longer holds its original.
    const renamed = await solo.api.patch(`/api/documents/${pdf}`, { name: "renamed.pdf" });
    expect(renamed.status, renamed.text).toBe(200);
  });

  it("a Form 8879 says remote signing needs a KBA provider, and signs once the firm checked a photo ID in person", async () => {
    const { solo, id } = await single("form_8879");
    const own = await solo.api.get(`/api/signature-requests/${id}`);
    expect(own.body.remote_signing_note).toMatch(/knowledge-based/);
    expect(own.body.me.identity_methods).toEqual([]);
    expect((await admin.get(`/api/admin/signature-requests/${id}`)).body.remote_signing_note).toMatch(/no provider is configured/);
    const start = await solo.api.post(`/api/signature-requests/${id}/verify/start`);
    expect(start.status).toBe(409);
    expect(start.body.detail).toMatch(/knowledge-based/);
    await solo.api.post(`/api/signature-requests/${id}/consent`, { disclosure_version: DISCLOSURE_VERSION });
    let sign = await solo.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "typed", text: "Sam Signer" } });
    expect(sign.status).toBe(403);
    expect(sign.body.detail).toMatch(/knowledge-based/);

    expect((await admin.post(`/api/admin/signature-requests/${id}/signers/3/in-person`, { id_document: "Driver's license" })).status).toBe(404);
    expect((await admin.post(`/api/admin/signature-requests/${id}/signers/0/in-person`, {})).status).toBe(422);
    const checked = await admin.post(`/api/admin/signature-requests/${id}/signers/0/in-person`, { id_document: "Driver's license" });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.signers[0]).toMatchObject({ identity_method: "in_person" });
    expect(checked.body.signers[0].identity_result).toMatch(/photo ID checked \(Driver's license\) by/);
    sign = await solo.api.post(`/api/signature-requests/${id}/sign`, { signature: { type: "typed", text: "Sam Signer" } });
    expect(sign.status, sign.text).toBe(200);
    expect(sign.body.status).toBe("completed");
    const certificate = (await pdfText(await download(solo.api, id))).at(-1)!;
    expect(certificate).toContain("in person");
    expect(certificate).toContain("Driver's license");
  });

  it("reminds the signers whose turn it is, once, 2 days before the due date (the hourly job)", async () => {
    const late = await person("Dana Later");
    const pdf = await uploadPdf(late.api, await makePdf(1));
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await createRequest({
      account_id: late.user.id,
      document_id: pdf,
      title: "Letter due soon",
      kind: "other",
      due_date: day(10),
      signers: [{ user_id: late.user.id }],
      fields: [signatureField(0)],
    });
    const runJob = async () => {
      const jobId = await server.deps.jobs.send("signature-reminders", {});
      await expect
        .poll(async () => (await server.deps.jobs.boss.findJobs("signature-reminders", { id: jobId! }))[0]?.state, {
          timeout: 10_000,
        })
        .toBe("completed");
    };
    const reminders = () =>
      smtp.messages.filter((m) => m.to.includes(late.user.email) && m.subject.startsWith("Reminder: Please sign: Letter due soon"));
    try {
      // 17:00 UTC is daytime on the firm's calendar (Chicago) in every season.
      server.clock.set(new Date(`${day(5)}T17:00:00Z`));
      await runJob();
      server.clock.set(new Date(`${day(8)}T17:00:00Z`));
      await runJob();
      await smtp.waitForMail(late.user.email, /Reminder: Please sign: Letter due soon/);
      await runJob();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(reminders()).toHaveLength(1);
    } finally {
      server.clock.set(new Date());
    }
  });
});

describe("the sealing certificate", () => {
  it("is the firm's own when SIGNING_P12 is given, and the self-signed one kept in the database otherwise", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
    cert.serialNumber = "0a";
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: "commonName", value: "Harborline Accounting seal" }]);
    cert.setIssuer([{ name: "commonName", value: "Harborline Accounting seal" }]);
    cert.sign(key, forge.md.sha256.create());
    const p12 = Buffer.from(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [cert], "firm-pass", { algorithm: "3des" })).getBytes(), "binary");
    const config = { ...server.deps.config, signing: { ...server.deps.config.signing, p12: p12.toString("base64"), password: "firm-pass" } };
    const identity = await sealingIdentity({ config, db: server.db, now: () => new Date() });
    expect(identity.source).toBe("configured");
    const input = {
      request: { id: randomUUID(), title: "Seal check", kind: "other", account: "Harborline", created: new Date(), completed: new Date() },
      originalSha256: "0".repeat(64),
      fields: [],
      signers: [],
      firmName: "Harborline",
      publicUrl: server.url,
    };
    const sealed = await sealPdf(await makePdf(1), input, identity, new Date());
    const range = readByteRange(sealed.bytes)!;
    expect(signatureHolds(range)).toBe(true);
    const message = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(forge.util.hexToBytes(range.signatureHex)));
    expect((message as { certificates: forge.pki.Certificate[] }).certificates[0]!.subject.getField("CN").value).toBe("Harborline Accounting seal");

    // Without it: the self-signed certificate the earlier seals made, one row, its password not stored as it is.
    const own = await sealingIdentity(server.deps);
    expect(own.source).toBe("self-signed");
    const rows = await server.db.selectFrom("signing_certificates").select(["id", "sealed_password"]).execute();
    expect(rows.map((r) => r.id)).toEqual(["self-signed"]);
    expect(rows[0]!.sealed_password).not.toContain(own.passphrase);
    const selfSealed = await sealPdf(await makePdf(1), input, own, new Date());
    expect(signatureHolds(readByteRange(selfSealed.bytes)!)).toBe(true);
  });
});

describe("signing settings", () => {
  it("a SIGNING_P12 that does not open, or an unknown KBA_PROVIDER, stops the server's start with the reason", async () => {
    await expect(startTestServer({ env: { SIGNING_P12: Buffer.from("not a PKCS#12 file").toString("base64") } })).rejects.toThrow(
      /SIGNING_P12 does not open with SIGNING_P12_PASSWORD/,
    );
    await expect(startTestServer({ env: { KBA_PROVIDER: "nobody" } })).rejects.toThrow(/KBA_PROVIDER names "nobody"/);
  });
});

describe("the public check of a sealed PDF", () => {
  const forgetChecks = () => sql`delete from rate_limits where key like 'seal_verify_ip:%'`.execute(server.db);

  it("takes 20 checks in 10 minutes from one address; the 21st is a 429 saying when to try again, before the file is read", async () => {
    await forgetChecks();
    try {
      const pdf = await makePdf(1, "Not sealed");
      for (let n = 1; n <= 20; n++) {
        const res = await verifyPdf(pdf);
        expect(res.status, `check ${n}: ${res.text}`).toBe(200);
        expect(res.body).toMatchObject({ valid: false, sealed_here: false });
      }
      const refused = await verifyPdf(pdf);
      expect(refused.status, refused.text).toBe(429);
      expect(refused.body).toEqual({ detail: "Too many PDFs checked. Please try again in 10 minutes." });
      // Refused before the form is read: not even a malformed one gets past the count.
      const anyone = new (admin.constructor as new (url: string) => ApiClient)(server.url);
      const form = new FormData();
      form.append("wrong", new Blob([new Uint8Array(10)]), "x.pdf");
      expect((await anyone.request("POST", "/api/signatures/verify", { body: form })).status).toBe(429);
      // Signed-in people and the firm have no other way around it: the address counts.
      expect((await admin.request("POST", "/api/signatures/verify", { body: form })).status).toBe(429);
    } finally {
      await forgetChecks();
    }
  });
});
