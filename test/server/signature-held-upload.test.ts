/*
 * A PDF the firm uploads while preparing a signature request (issue 48; docs/decisions.md, "A PDF
 * for a signature request waits for the request") stays the firm's until the request is sent: the
 * account's people cannot list, search, preview, download, ZIP, export, rename, delete or attach
 * it, nor read its upload in their activity, and get no upload mail. Sending the request shares it.
 * Real server, real database, real SMTP.
 */
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const HELD_NAME = "engagement-letter-held.pdf";

let smtp: TestSmtpServer;
let server: TestServer;
let firm: ApiClient;
let owner: UserFixture;
let spouse: UserFixture;
let ownerApi: ApiClient;
let spouseApi: ApiClient;
let heldId: string;

async function makePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText("Engagement letter for the held upload", { x: 72, y: 700, size: 14, font });
  return doc.save();
}

async function firmUpload(name: string, fields: Record<string, string>): Promise<{ status: number; id: string; text: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([(await makePdf()) as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), name);
  const res = await firm.request("POST", `/api/admin/users/${owner.id}/documents`, { body: form });
  return { status: res.status, id: (res.body as { id?: string }).id ?? "", text: res.text };
}

/** Everything a person of the account may read documents by; true where the held PDF shows. */
async function whatTheySee(api: ApiClient, id: string) {
  const root = await api.get("/api/documents/root");
  const search = await api.get(`/api/documents/search?q=${encodeURIComponent("engagement")}`);
  const activity = await api.get("/api/activity");
  const zip = await api.get("/api/folders/root/download");
  const exported = await api.get("/api/account/export");
  return {
    listed: (root.body as Array<{ id: string }>).some((d) => d.id === id),
    searched: (search.body as Array<{ id: string }>).some((d) => d.id === id),
    preview: (await api.get(`/api/documents/${id}/preview`)).status,
    download: (await api.get(`/api/documents/${id}/download`)).status,
    zipped: zip.text.includes(HELD_NAME),
    exported: exported.text.includes(HELD_NAME),
    activity: JSON.stringify(activity.body).includes(HELD_NAME),
  };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL: "office@harborline.test" } });
  firm = await loginClient(server.url, await createUser(server.db, { is_admin: true, name: "Morgan Firm" }), "admin");
  owner = await createUser(server.db, { name: "Maria Garcia" });
  spouse = await createUser(server.db, { name: "Jose Garcia" });
  await makeHousehold(server.db, { owner, member: spouse, name: "Garcia household", verifiedAt: new Date() });
  ownerApi = await loginClient(server.url, owner);
  spouseApi = await loginClient(server.url, spouse);
  const held = await firmUpload(HELD_NAME, { for_signature: "true" });
  expect(held.status, held.text).toBe(201);
  heldId = held.id;
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

describe("before the request is sent", () => {
  it("no person of the account finds it on any read path", async () => {
    const hidden = { listed: false, searched: false, preview: 404, download: 404, zipped: false, exported: false, activity: false };
    expect(await whatTheySee(ownerApi, heldId)).toEqual(hidden);
    expect(await whatTheySee(spouseApi, heldId)).toEqual(hidden);
  });

  it("nor renames, deletes or attaches it by its id", async () => {
    expect((await ownerApi.patch(`/api/documents/${heldId}`, { name: "mine.pdf" })).status).toBe(404);
    expect((await ownerApi.delete(`/api/documents/${heldId}`)).status).toBe(404);
    expect((await ownerApi.post("/api/messages", { text: "what is this", document_ids: [heldId] })).status).toBe(404);
  });

  it("the firm sees it as usual", async () => {
    const list = await firm.get(`/api/admin/users/${owner.id}/documents`);
    expect((list.body as Array<{ id: string }>).map((d) => d.id)).toContain(heldId);
    expect((await firm.get(`/api/admin/documents/${heldId}/preview`)).status).toBe(200);
  });

  it("a client cannot hold back their own upload: the field is the firm's", async () => {
    const form = new FormData();
    form.append("for_signature", "true");
    form.append("file", new Blob(["notes"], { type: "text/plain" }), "notes.txt");
    const res = await ownerApi.request("POST", "/api/documents/upload", { body: form });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({ detail: expect.stringContaining("for_signature is for the firm's uploads") });
  });

  it("a draft abandoned before sending leaves it out of the client's sight, in the trash too", async () => {
    const abandoned = await firmUpload("abandoned-draft.pdf", { for_signature: "true" });
    expect(abandoned.status).toBe(201);
    expect((await firm.delete(`/api/admin/documents/${abandoned.id}`)).status).toBe(200);
    const trash = await ownerApi.get("/api/trash");
    expect(JSON.stringify(trash.body)).not.toContain("abandoned-draft.pdf");
    expect((await ownerApi.get("/api/documents/root")).text).not.toContain("abandoned-draft.pdf");
  });
});

describe("once the request is sent", () => {
  it("every person of the account finds it, and it is named to the signer", async () => {
    const sent = await firm.post("/api/admin/signature-requests", {
      account_id: owner.id,
      document_id: heldId,
      title: "Engagement letter",
      kind: "engagement_letter",
      signers: [{ user_id: owner.id }],
      order: "parallel",
      due_date: null,
      message: "",
      fields: [{ signer: 0, type: "signature", page: 1, x: 0.1, y: 0.8, width: 0.35, height: 0.06 }],
    });
    expect(sent.status, sent.text).toBe(201);
    const shown = { listed: true, searched: true, preview: 200, download: 200, zipped: true, exported: true, activity: true };
    expect(await whatTheySee(ownerApi, heldId)).toEqual(shown);
    expect(await whatTheySee(spouseApi, heldId)).toEqual(shown);
  });
});
