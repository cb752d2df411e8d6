// Issue 47 item 2: a client erased their own signed Form 8879 by deleting their login. The account
// deletion ran `delete from documents` for the accounts the person was the last of, and the 3-year
// lock was a trigger on UPDATE only: the sealed 8879, its original, the request, its signers and
// audit events went, and the public verify page no longer knew the file. The firm's deletion of the
// person took the same path. Replayed here over real HTTP: the account now stands without people
// until its signed records are released, the firm sees it and the date, the verify page still knows
// the sealed file, and the database itself refuses deleting any of those rows.
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PASSWORD, createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient, type ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const DISCLOSURE_VERSION = "2026-11-26";

let server: TestServer;
let firm: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  firm = await loginClient(server.url, await createStaffMember(server.db, "owner"), "admin");
});
afterAll(() => server.close());

async function makePdf(label: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(label, { x: 72, y: 700, size: 14, font });
  return doc.save();
}

async function uploadPdf(api: ApiClient, bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), name);
  const res = await api.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

type Signed = { user: UserFixture; api: ApiClient; requestId: string; originalId: string; sealedId: string; sealed: Buffer };

/** A client whose Form 8879 the firm sent, checked their photo ID in person, and who signed it: sealed. */
async function signedForm8879(name: string): Promise<Signed> {
  const user = await createUser(server.db, { name });
  const api = await loginClient(server.url, user);
  const originalId = await uploadPdf(api, await makePdf(`Form 8879 of ${name}`), "8879.pdf");
  const created = await firm.post("/api/admin/signature-requests", {
    account_id: user.id,
    document_id: originalId,
    title: `2025 Form 8879 - ${name}`,
    kind: "form_8879",
    signers: [{ user_id: user.id }],
    fields: [{ signer: 0, type: "signature", page: 1, x: 0.1, y: 0.8, width: 0.35, height: 0.06 }],
  });
  expect(created.status, created.text).toBe(201);
  const requestId = created.body.id as string;
  expect((await api.post(`/api/signature-requests/${requestId}/consent`, { disclosure_version: DISCLOSURE_VERSION })).status).toBe(200);
  const checked = await firm.post(`/api/admin/signature-requests/${requestId}/signers/0/in-person`, { id_document: "Driver's license" });
  expect(checked.status, checked.text).toBe(200);
  const signed = await api.post(`/api/signature-requests/${requestId}/sign`, { signature: { type: "typed", text: name } });
  expect(signed.status, signed.text).toBe(200);
  expect(signed.body.status).toBe("completed");
  const download = await fetch(new URL(`/api/signature-requests/${requestId}/document`, server.url), {
    headers: { Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; "), Origin: server.url },
  });
  expect(download.status).toBe(200);
  return { user, api, requestId, originalId, sealedId: signed.body.sealed_document_id as string, sealed: Buffer.from(await download.arrayBuffer()) };
}

/** The public verify page's check, by someone holding the file and nothing else. */
async function verify(bytes: Buffer): Promise<ApiResponse> {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "signed.pdf");
  return new ApiClient(server.url).request("POST", "/api/signatures/verify", { body: form });
}

/** Every row of the signature record, counted, and whether its account is there. */
async function recordRows(s: Signed) {
  const byRequest = async (table: "signature_signers" | "signature_fields" | "signature_events") =>
    (await server.db.selectFrom(table).select("request_id").where("request_id", "=", s.requestId).execute()).length;
  return {
    account: (await server.db.selectFrom("accounts").select("id").where("id", "=", s.user.id).executeTakeFirst()) !== undefined,
    documents: (await server.db.selectFrom("documents").select("id").where("id", "in", [s.originalId, s.sealedId]).execute()).length,
    requests: (await server.db.selectFrom("signature_requests").select("id").where("id", "=", s.requestId).execute()).length,
    signers: await byRequest("signature_signers"),
    fields: await byRequest("signature_fields"),
    events: await byRequest("signature_events"),
  };
}

async function expectStillRecorded(s: Signed): Promise<void> {
  const rows = await server.db.selectFrom("signature_requests").select(["id", "status"]).where("id", "=", s.requestId).execute();
  expect(rows).toEqual([{ id: s.requestId, status: "completed" }]);
  expect((await server.db.selectFrom("documents").select("id").where("id", "in", [s.originalId, s.sealedId]).execute()).length).toBe(2);
  expect(
    (await server.db.selectFrom("signature_signers").select(["name", "status"]).where("request_id", "=", s.requestId).execute()).map((r) => r.status),
  ).toEqual(["signed"]);
  const events = await server.db.selectFrom("signature_events").select("action").where("request_id", "=", s.requestId).execute();
  expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(["create", "consent", "sign", "complete"]));
  // The public verify page still recognises the sealed file, with its request and signer.
  const checked = await verify(s.sealed);
  expect(checked.status, checked.text).toBe(200);
  expect(checked.body).toMatchObject({ valid: true, sealed_here: true, signature_intact: true });
  expect(checked.body.request).toMatchObject({ id: s.requestId, kind: "form_8879" });
  expect(checked.body.request.signers.map((signer: { name: string }) => signer.name)).toEqual([s.user.name]);
}

/** The firm sees the account standing without people, and the day its signed records are released (3 years after the signing). */
async function expectFirmSeesKept(s: Signed): Promise<void> {
  const completedAt = (
    await server.db.selectFrom("signature_requests").select("completed_at").where("id", "=", s.requestId).executeTakeFirstOrThrow()
  ).completed_at!;
  const releasedOn = new Date(completedAt);
  releasedOn.setUTCFullYear(releasedOn.getUTCFullYear() + 3);
  const account = await firm.get(`/api/admin/accounts/${s.user.id}`);
  expect(account.status, account.text).toBe(200);
  expect(account.body.contacts).toEqual([]);
  expect(new Date(account.body.retained_until).getTime()).toBe(releasedOn.getTime());
  const listed = await firm.get(`/api/admin/accounts?q=${encodeURIComponent(s.user.username!)}`);
  expect(listed.body).toEqual([expect.objectContaining({ id: s.user.id, contacts: [], retained_until: releasedOn.toISOString() })]);
  const due = await firm.get("/api/admin/retention/due");
  expect(due.status, due.text).toBe(200);
  expect(due.body.kept).toEqual(
    expect.arrayContaining([{ account_id: s.user.id, account_name: s.user.username, retained_until: releasedOn.toISOString() }]),
  );
}

describe("a client deleting their login", () => {
  it("leaves their signed Form 8879 standing in an account without people, verifiable, and the firm sees until when", async () => {
    const s = await signedForm8879("Sam Sealed");
    await expectStillRecorded(s);
    const before = await recordRows(s);

    const deleted = await s.api.post("/api/auth/delete-account", { password: DEFAULT_PASSWORD });
    expect(deleted.status, deleted.text).toBe(200);

    // The login is gone; nothing of the signature record is.
    expect(await server.db.selectFrom("users").select("id").where("id", "=", s.user.id).executeTakeFirst()).toBeUndefined();
    expect(await recordRows(s)).toEqual({ ...before, account: true });
    await expectStillRecorded(s);
    await expectFirmSeesKept(s);
    // The signer's row keeps the name and address the certificate shows, without the login.
    expect(
      await server.db.selectFrom("signature_signers").select(["user_id", "email"]).where("request_id", "=", s.requestId).executeTakeFirstOrThrow(),
    ).toEqual({ user_id: null, email: s.user.email });
    // The trail says what stayed, and until when.
    const [entry] = await server.db
      .selectFrom("activity_events")
      .select("detail")
      .where("action", "=", "user.delete")
      .where("target_id", "=", s.user.id)
      .execute();
    expect(entry!.detail).toMatchObject({ by: "self", retained_accounts_kept: [{ id: s.user.id, until: expect.any(String) }] });
  });

  it("without signed records still takes the account and its data, as before", async () => {
    const user = await createUser(server.db, { name: "Nora Nothing" });
    const api = await loginClient(server.url, user);
    const documentId = await uploadPdf(api, await makePdf("A W-2"), "w2.pdf");
    // A request the firm voided holds nothing: its original goes with the account.
    const created = await firm.post("/api/admin/signature-requests", {
      account_id: user.id,
      document_id: documentId,
      title: "Letter",
      kind: "other",
      signers: [{ user_id: user.id }],
      fields: [{ signer: 0, type: "signature", page: 1, x: 0.1, y: 0.8, width: 0.35, height: 0.06 }],
    });
    expect(created.status, created.text).toBe(201);
    expect((await firm.post(`/api/admin/signature-requests/${created.body.id}/void`, { reason: "Wrong year" })).status).toBe(200);

    expect((await api.post("/api/auth/delete-account", { password: DEFAULT_PASSWORD })).status).toBe(200);
    expect(await server.db.selectFrom("accounts").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", user.id).execute()).toEqual([]);
    expect(await server.db.selectFrom("signature_requests").select("id").where("account_id", "=", user.id).execute()).toEqual([]);
  });
});

describe("the firm deleting the person", () => {
  it("takes the same path: the person goes, the signed record and its account stay", async () => {
    const s = await signedForm8879("Fay Firmdeleted");
    const before = await recordRows(s);
    const deleted = await firm.delete(`/api/admin/users/${s.user.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", s.user.id).executeTakeFirst()).toBeUndefined();
    expect(await recordRows(s)).toEqual({ ...before, account: true });
    await expectStillRecorded(s);
    await expectFirmSeesKept(s);
  });
});

describe("the database", () => {
  it("refuses deleting a retained document, its request, signers, fields and events, or its account, whatever path asks", async () => {
    const s = await signedForm8879("Dora Direct");
    const refused = /retained until/;
    await expect(server.db.deleteFrom("documents").where("id", "=", s.sealedId).execute()).rejects.toThrow(refused);
    await expect(server.db.deleteFrom("documents").where("id", "=", s.originalId).execute()).rejects.toThrow(refused);
    await expect(server.db.deleteFrom("signature_requests").where("id", "=", s.requestId).execute()).rejects.toThrow(refused);
    for (const table of ["signature_signers", "signature_fields", "signature_events"] as const)
      await expect(server.db.deleteFrom(table).where("request_id", "=", s.requestId).execute(), table).rejects.toThrow(refused);
    await expect(sql`delete from accounts where id = ${s.user.id}`.execute(server.db)).rejects.toThrow(refused);
    // Nor may the lock of a signed document be shortened to get around it.
    await expect(server.db.updateTable("documents").set({ retained_until: null }).where("id", "=", s.sealedId).execute()).rejects.toThrow(refused);
    await expect(server.db.updateTable("documents").set({ retained_until: new Date() }).where("id", "=", s.originalId).execute()).rejects.toThrow(
      refused,
    );
    // A person deleted by SQL alone: the person-deleted trigger leaves the account standing too.
    await server.db.deleteFrom("users").where("id", "=", s.user.id).execute();
    await expectStillRecorded(s);
    expect((await server.db.selectFrom("accounts").select("id").where("id", "=", s.user.id).execute()).length).toBe(1);
  });
});
