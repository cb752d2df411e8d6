/*
 * Private folders (docs/decisions.md, "Private folders"; issue 48, item 8): a business owner keeps a
 * folder that only she and the firm see. Her bookkeeper, a person of the same account, is replayed
 * against every path that reads documents, by list and by id: the folder list, the folder's
 * documents, search, preview, download, rename, move, delete, the folder's and the root's ZIP, the
 * trash (list, restore, delete forever), the activity trail, the export, uploading into it and
 * making a folder in it. The owner and the firm see it as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const SECRET_FILE = "owner-draw-2026.txt";
const TRASHED_FILE = "owner-loan-2026.txt";

let server: TestServer;
let firm: ApiClient;
let owner: UserFixture;
let bookkeeper: UserFixture;
let ownerApi: ApiClient;
let keeperApi: ApiClient;
let folderId: string;
let documentId: string;
let trashedId: string;

async function upload(api: ApiClient, name: string, folder: string | null) {
  const form = new FormData();
  if (folder) form.append("folder_id", folder);
  form.append("file", new Blob([`contents of ${name}`], { type: "text/plain" }), name);
  return api.request("POST", "/api/documents/upload", { body: form });
}

beforeAll(async () => {
  server = await startTestServer();
  firm = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  owner = await createUser(server.db, { name: "Dana Owner" });
  bookkeeper = await createUser(server.db, { name: "Bo Keeper" });
  await makeHousehold(server.db, { owner, member: bookkeeper, name: "Owner Bakery LLC", verifiedAt: new Date() });
  ownerApi = await loginClient(server.url, owner);
  keeperApi = await loginClient(server.url, bookkeeper);
  const made = await ownerApi.post("/api/folders", { name: "Owner only", private: true });
  expect(made.status, made.text).toBe(201);
  folderId = made.body.id;
  const stored = await upload(ownerApi, SECRET_FILE, folderId);
  expect(stored.status, stored.text).toBe(201);
  documentId = stored.body.id;
  const toTrash = await upload(ownerApi, TRASHED_FILE, folderId);
  trashedId = toTrash.body.id;
  expect((await ownerApi.delete(`/api/documents/${trashedId}`)).status).toBe(200);
});
afterAll(() => server.close());

describe("the account's other person reaches none of it", () => {
  it("by list: folders, search, trash, activity, the root ZIP and the export", async () => {
    expect((await keeperApi.get("/api/folders")).body).toEqual([]);
    expect((await keeperApi.get("/api/documents/search?q=owner")).body).toEqual([]);
    expect(JSON.stringify((await keeperApi.get("/api/trash")).body)).not.toContain(TRASHED_FILE);
    const activity = JSON.stringify((await keeperApi.get("/api/activity")).body);
    expect(activity).not.toContain(SECRET_FILE);
    expect(activity).not.toContain("Owner only");
    expect((await keeperApi.get("/api/folders/root/download")).text).not.toContain(SECRET_FILE);
    const exported = await keeperApi.get("/api/account/export");
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(SECRET_FILE);
  });

  it("by id: every document and folder path answers as for nothing", async () => {
    expect((await keeperApi.get(`/api/documents/folder/${folderId}`)).status).toBe(404);
    expect((await keeperApi.get(`/api/documents/${documentId}/preview`)).status).toBe(404);
    expect((await keeperApi.get(`/api/documents/${documentId}/download`)).status).toBe(404);
    expect((await keeperApi.patch(`/api/documents/${documentId}`, { name: "mine.txt" })).status).toBe(404);
    expect((await keeperApi.patch(`/api/documents/${documentId}`, { folder_id: null })).status).toBe(404);
    expect((await keeperApi.delete(`/api/documents/${documentId}`)).status).toBe(404);
    expect((await keeperApi.get(`/api/folders/${folderId}/download`)).status).toBe(404);
    expect((await keeperApi.patch(`/api/folders/${folderId}`, { name: "Renamed" })).status).toBe(404);
    expect((await keeperApi.delete(`/api/folders/${folderId}`)).status).toBe(404);
    expect((await keeperApi.post("/api/folders", { name: "Inside", parent_folder_id: folderId })).status).toBe(404);
    expect((await upload(keeperApi, "planted.txt", folderId)).status).toBe(404);
    expect((await keeperApi.post(`/api/trash/${trashedId}/restore`)).status).toBe(404);
    expect((await keeperApi.delete(`/api/trash/${trashedId}`)).status).toBe(404);
    expect((await keeperApi.post("/api/messages", { text: "look", document_ids: [documentId] })).status).toBe(404);
  });
});

describe("the owner and the firm see it as usual", () => {
  it("the owner lists, searches and opens it; a folder made inside it is private too", async () => {
    const folders = (await ownerApi.get("/api/folders")).body as Array<{ id: string; is_private: boolean }>;
    expect(folders).toEqual([expect.objectContaining({ id: folderId, is_private: true })]);
    expect(((await ownerApi.get("/api/documents/search?q=owner")).body as Array<{ id: string }>).map((d) => d.id)).toEqual([documentId]);
    expect((await ownerApi.get(`/api/documents/${documentId}/download`)).status).toBe(200);
    const inside = await ownerApi.post("/api/folders", { name: "2026", parent_folder_id: folderId });
    expect(inside.body.is_private).toBe(true);
    expect((await keeperApi.get("/api/folders")).body).toEqual([]);
    // Its privacy does not change by a move: a shared folder does not go into it.
    const shared = await keeperApi.post("/api/folders", { name: "Shared" });
    expect((await ownerApi.patch(`/api/folders/${shared.body.id}`, { parent_folder_id: folderId })).status).toBe(422);
  });

  it("the firm lists and opens it", async () => {
    const folders = (await firm.get(`/api/admin/users/${owner.id}/folders`)).body as Array<{ id: string }>;
    expect(folders.map((f) => f.id)).toContain(folderId);
    expect((await firm.get(`/api/admin/documents/${documentId}/preview`)).status).toBe(200);
  });
});
