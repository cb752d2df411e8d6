// The firm shares documents with a client: an admin uploads into one of the client's folders (or
// their root) through POST /api/admin/users/:id/documents, under the client's own upload rules. The
// document is the client's, marked from the firm, and the client treats it like any of their own.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../server/domains/documents/schemas.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient, type ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let adminUser: UserFixture;
let admin: ApiClient;
let clientUser: UserFixture;
let client: ApiClient;
let otherUser: UserFixture;
let other: ApiClient;
let folderId: string;

beforeAll(async () => {
  server = await startTestServer();
  adminUser = await createUser(server.db, { is_admin: true });
  admin = await loginClient(server.url, adminUser, "admin");
  clientUser = await createUser(server.db, { name: "Carla Client" });
  client = await loginClient(server.url, clientUser);
  otherUser = await createUser(server.db);
  other = await loginClient(server.url, otherUser);
  const folder = await client.post("/api/folders", { name: "Taxes 2025" });
  expect(folder.status, folder.text).toBe(201);
  folderId = folder.body.id;
});
afterAll(() => server.close());

function shareWith(
  caller: ApiClient,
  userId: string,
  content: string | Uint8Array,
  filename = "return-2025.txt",
  opts: { folderId?: string; type?: string } = {},
): Promise<ApiResponse> {
  const form = new FormData();
  if (opts.folderId) form.append("folder_id", opts.folderId);
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: opts.type ?? "text/plain" }), filename);
  return caller.request("POST", `/api/admin/users/${userId}/documents`, { body: form });
}

function uploadForm(content: string, filename: string): FormData {
  const form = new FormData();
  form.append("file", new Blob([content], { type: "text/plain" }), filename);
  return form;
}

function storedFileCount(): number {
  const root = path.join(server.dataDir, "documents");
  return fs.existsSync(root)
    ? fs.readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => fs.statSync(path.join(root, f)).isFile()).length
    : 0;
}

async function documentCount(userId: string): Promise<number> {
  const rows = await server.db.selectFrom("documents").select("id").where("account_id", "=", userId).execute();
  return rows.length;
}

describe("the admin uploads into a client's documents", () => {
  it("stores the file as the client's, in their folder, marked as from the firm", async () => {
    const res = await shareWith(admin, clientUser.id, "Form 1040, prepared", "Tax return 2025.txt", { folderId });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ original_filename: "Tax return 2025.txt", folder_id: folderId, content_type: "text/plain", from_firm: true });
    const row = await server.db
      .selectFrom("documents")
      .select(["account_id as user_id", "uploaded_by", "file_size"])
      .where("id", "=", res.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: clientUser.id, uploaded_by: adminUser.id, file_size: "Form 1040, prepared".length });

    const listed = await client.get(`/api/documents/folder/${folderId}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: res.body.id, from_firm: true })]);
    const search = await client.get("/api/documents/search?q=Tax%20return");
    expect(search.body).toEqual([expect.objectContaining({ id: res.body.id, from_firm: true, folder_path: [{ id: folderId, name: "Taxes 2025" }] })]);
    const adminList = await admin.get(`/api/admin/users/${clientUser.id}/documents?folder_id=${folderId}`);
    expect(adminList.status).toBe(200);
    expect(adminList.body).toEqual([expect.objectContaining({ id: res.body.id, from_firm: true })]);
  });

  it("goes into the client's root without a folder_id, and the client's own uploads are not from the firm", async () => {
    const shared = await shareWith(admin, clientUser.id, "engagement letter", "Engagement letter.txt");
    expect(shared.status, shared.text).toBe(201);
    expect(shared.body).toMatchObject({ folder_id: null, from_firm: true });
    const form = new FormData();
    form.append("file", new Blob(["my receipts"], { type: "text/plain" }), "Receipts.txt");
    const own = await client.request("POST", "/api/documents/upload", { body: form });
    expect(own.status, own.text).toBe(201);
    expect(own.body.from_firm).toBe(false);
    expect((await server.db.selectFrom("documents").select("uploaded_by").where("id", "=", own.body.id).executeTakeFirstOrThrow()).uploaded_by).toBe(
      clientUser.id,
    );

    const root = await client.get("/api/documents/root");
    const byName = new Map((root.body as { original_filename: string; from_firm: boolean }[]).map((d) => [d.original_filename, d.from_firm]));
    expect(byName.get("Engagement letter.txt")).toBe(true);
    expect(byName.get("Receipts.txt")).toBe(false);
    const adminRoot = await admin.get(`/api/admin/users/${clientUser.id}/documents`);
    expect((adminRoot.body as { id: string }[]).map((d) => d.id)).toEqual(expect.arrayContaining([shared.body.id, own.body.id]));
  });

  it("refuses another client's folder as a missing one (404), and keeps nothing", async () => {
    const foreign = await other.post("/api/folders", { name: "Not Carla's" });
    const files = storedFileCount();
    const before = await documentCount(clientUser.id);
    const res = await shareWith(admin, clientUser.id, "misdirected", "x.txt", { folderId: foreign.body.id });
    const missing = await shareWith(admin, clientUser.id, "misdirected", "x.txt", { folderId: "00000000-0000-4000-8000-000000000000" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Folder not found" });
    expect(missing.body).toEqual(res.body);
    expect(await documentCount(clientUser.id)).toBe(before);
    expect(await documentCount(otherUser.id)).toBe(0);
    expect(storedFileCount()).toBe(files);
    const listing = await admin.get(`/api/admin/users/${clientUser.id}/documents?folder_id=${foreign.body.id}`);
    expect(listing.status).toBe(404);
  });

  it("answers 404 for a missing user and for an admin account", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", adminUser.id]) {
      const res = await shareWith(admin, id, "nobody");
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ detail: "User not found" });
      expect((await admin.get(`/api/admin/users/${id}`)).status).toBe(404);
      expect((await admin.get(`/api/admin/users/${id}/folders`)).status).toBe(404);
    }
    expect(await documentCount(adminUser.id)).toBe(0);
  });

  it("is the admin's alone: a client gets 403, nobody signed in 401", async () => {
    const files = storedFileCount();
    const asClient = await shareWith(client, otherUser.id, "from a client");
    expect(asClient.status).toBe(403);
    expect(asClient.body).toEqual({ detail: "Admin access required" });
    const anonymous = await shareWith(new ApiClient(server.url), clientUser.id, "from nobody");
    expect(anonymous.status).toBe(401);
    expect(await documentCount(otherUser.id)).toBe(0);
    expect(storedFileCount()).toBe(files);
  });

  it("keeps the client's limits: 10 MB, their storage quota, what the content is, the name cleaned", async () => {
    const tooLarge = await shareWith(admin, clientUser.id, new Uint8Array(MAX_UPLOAD_BYTES + 1), "big.bin");
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ detail: "File is larger than 10MB" });

    const small = await createUser(server.db);
    await server.db.updateTable("accounts").set({ storage_quota_mb: 1 }).where("id", "=", small.id).execute();
    const overQuota = await shareWith(admin, small.id, new Uint8Array(1024 * 1024 + 1), "over.bin");
    expect(overQuota.status).toBe(413);
    expect(overQuota.body).toEqual({ detail: "Storage quota exceeded" });
    expect(await documentCount(small.id)).toBe(0);

    // A PNG declared as a PDF is recorded as what it is; a path in the name is dropped.
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001", "hex");
    const typed = await shareWith(admin, clientUser.id, png, "../../scan.pdf", { type: "application/pdf" });
    expect(typed.status, typed.text).toBe(201);
    expect(typed.body).toMatchObject({ original_filename: "scan.pdf", content_type: "image/png" });

    // The same name twice is two documents, as with the client's own uploads.
    const first = await shareWith(admin, clientUser.id, "v1", "Organizer.txt", { folderId });
    const second = await shareWith(admin, clientUser.id, "v2", "Organizer.txt", { folderId });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.id).not.toBe(second.body.id);
  });
});

describe("the client has it like their own", () => {
  it("previews, downloads, trashes and restores it", async () => {
    const shared = await shareWith(admin, clientUser.id, "Your signed return", "Signed return.txt", { folderId });
    const id = shared.body.id as string;
    const preview = await client.get(`/api/documents/${id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.text).toBe("Your signed return");
    const download = await client.get(`/api/documents/${id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain("attachment");
    expect(download.text).toBe("Your signed return");
    expect((await other.get(`/api/documents/${id}/download`)).status).toBe(404);

    const renamed = await client.patch(`/api/documents/${id}`, { name: "Return (signed).txt" });
    expect(renamed.body).toMatchObject({ original_filename: "Return (signed).txt", from_firm: true });
    expect((await client.delete(`/api/documents/${id}`)).status).toBe(200);
    const trash = await client.get("/api/trash");
    expect(trash.body).toEqual(expect.arrayContaining([expect.objectContaining({ id, from_firm: true, folder_id: folderId })]));
    const restored = await client.post(`/api/trash/${id}/restore`);
    expect(restored.body).toMatchObject({ id, folder_id: folderId, from_firm: true });
  });

  it("pulled back by the firm, leaves the client's sight: not in their trash, not theirs to restore or delete; the firm restores it", async () => {
    const shared = await shareWith(admin, clientUser.id, "Someone else's return", "Wrong client.txt", { folderId });
    const id = shared.body.id as string;
    const own = await client.request("POST", "/api/documents/upload", { body: uploadForm("My receipt", "receipt.txt") });
    expect(own.status, own.text).toBe(201);

    expect((await admin.delete(`/api/admin/documents/${id}`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/documents/${own.body.id}`)).status).toBe(200);
    const trash = await client.get("/api/trash");
    const ids = (trash.body as { id: string }[]).map((d) => d.id);
    // The client's own upload deleted by the firm stays theirs to restore; the pulled-back share does not show.
    expect(ids).toContain(own.body.id);
    expect(ids).not.toContain(id);
    expect((await client.get(`/api/documents/${id}/download`)).status).toBe(404);
    expect((await client.post(`/api/trash/${id}/restore`)).status).toBe(404);
    expect((await client.delete(`/api/trash/${id}`)).status).toBe(404);
    expect(await documentCount(clientUser.id)).toBeGreaterThan(0);

    const firmTrash = await admin.get(`/api/admin/trash?q=${encodeURIComponent("Wrong client")}`);
    expect(firmTrash.body).toEqual([expect.objectContaining({ id, from_firm: true })]);
    const restored = await admin.post(`/api/admin/trash/${id}/restore`);
    expect(restored.body).toMatchObject({ id, folder_id: folderId });
    expect((await client.get(`/api/documents/${id}/download`)).status).toBe(200);
    // Restored, it is an ordinary share again: the client's own delete puts it in their trash.
    expect((await client.delete(`/api/documents/${id}`)).status).toBe(200);
    expect(((await client.get("/api/trash")).body as { id: string }[]).map((d) => d.id)).toContain(id);
  });

  it("the firm previews and downloads it from the client's page, as any client document", async () => {
    const shared = await shareWith(admin, clientUser.id, "Quarterly estimate", "Q3 estimate.txt");
    const preview = await admin.get(`/api/admin/documents/${shared.body.id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.text).toBe("Quarterly estimate");
    const folders = await admin.get(`/api/admin/users/${clientUser.id}/folders`);
    expect(folders.body).toEqual([expect.objectContaining({ id: folderId, name: "Taxes 2025" })]);
    const profile = await admin.get(`/api/admin/users/${clientUser.id}`);
    expect(profile.body).toMatchObject({ id: clientUser.id, name: "Carla Client", is_admin: false });
    expect(profile.body.used_bytes).toBeGreaterThan(0);
  });
});

describe("the activity trail", () => {
  it("records the firm's upload in the client's trail, with the firm as actor and the folder", async () => {
    const shared = await shareWith(admin, clientUser.id, "Payroll summary", "Payroll.txt", { folderId });
    const event = await server.db
      .selectFrom("activity_events")
      .select(["account_id as client_id", "client_label", "actor_id", "actor_role", "target_type", "detail"])
      .where("action", "=", "document.upload")
      .where("target_id", "=", shared.body.id)
      .executeTakeFirstOrThrow();
    expect(event).toEqual({
      client_id: clientUser.id,
      client_label: clientUser.username,
      actor_id: adminUser.id,
      actor_role: "admin",
      target_type: "document",
      detail: { filename: "Payroll.txt", folder: "Taxes 2025" },
    });
    const own = await client.get("/api/activity?limit=50");
    expect(own.status).toBe(200);
    expect(own.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "document.upload", actor_role: "admin", target_id: shared.body.id })]),
    );
  });

  it("records nothing for a refused upload", async () => {
    const before = await server.db.selectFrom("activity_events").select("id").where("action", "=", "document.upload").execute();
    await shareWith(admin, clientUser.id, new Uint8Array(MAX_UPLOAD_BYTES + 1), "big.bin");
    await shareWith(client, clientUser.id, "as a client");
    const after = await server.db.selectFrom("activity_events").select("id").where("action", "=", "document.upload").execute();
    expect(after.length).toBe(before.length);
  });
});

describe("the firm's email setting", () => {
  it("names documents in emails by default, and the admin can turn that off", async () => {
    expect((await admin.get("/api/admin/notification-settings")).body).toEqual({ include_document_names_in_emails: true });
    const off = await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ include_document_names_in_emails: false });
    expect((await admin.get("/api/admin/notification-settings")).body).toEqual({ include_document_names_in_emails: false });
    const bad = await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: "no" });
    expect(bad.status).toBe(422);
    expect((await client.get("/api/admin/notification-settings")).status).toBe(403);
    await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: true });
  });
});

describe("the OpenAPI document", () => {
  it("describes the firm's upload as a multipart form and every document output with from_firm", async () => {
    const doc = (await new ApiClient(server.url).get("/api/openapi.json")).body;
    const upload = doc.paths["/admin/users/{id}/documents"].post;
    const form = upload.requestBody.content["multipart/form-data"].schema;
    expect(form.properties.file.format).toBe("binary");
    expect(form.properties).toHaveProperty("folder_id");
    expect(Object.keys(upload.responses)).toContain("201");
    const listed = doc.paths["/documents/root"].get.responses["200"].content["application/json"].schema.items;
    expect(listed.properties.from_firm).toEqual({ type: "boolean" });
    expect(listed.required).toContain("from_firm");
    expect(doc.paths["/admin/users/{id}/documents"].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["id", "folder_id"]),
    );
    expect(doc.paths["/admin/notification-settings"].put.requestBody.content["application/json"].schema.required).toEqual([
      "include_document_names_in_emails",
    ]);
  });
});
