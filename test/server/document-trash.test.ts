// The trash (issue 17): a deleted document leaves every listing but keeps its file and its place in
// the quota for 30 days; its owner (or the admin) may restore it to its folder, or to the root when
// the folder is gone; its owner may delete it for good; an hourly job purges what is older.
import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeExpiredTrash } from "../../server/domains/documents/trash.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient, ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let alice: ApiClient;
let aliceUser: UserFixture;
let bob: ApiClient;

const DAY_MS = 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;

beforeAll(async () => {
  server = await startTestServer();
  aliceUser = await createUser(server.db, { name: "Alice Trash" });
  alice = await loginClient(server.url, aliceUser);
  bob = await loginClient(server.url, await createUser(server.db));
});
afterAll(() => server.close());

type Document = { id: string; original_filename: string; upload_date: string; file_size: number; folder_id: string | null; content_type: string };
type Trashed = Document & { deleted_at: string; purge_at: string };

async function upload(client: ApiClient, opts: { folderId?: string | null; name?: string; bytes?: number } = {}): Promise<Document> {
  const form = new FormData();
  form.append("file", new Blob([randomBytes(opts.bytes ?? 500)]), opts.name ?? "receipt.bin");
  if (opts.folderId) form.append("folder_id", opts.folderId);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function createFolder(client: ApiClient, name: string, parentId: string | null = null): Promise<string> {
  const res = await client.post("/api/folders", { name, parent_folder_id: parentId });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function storageKeyOf(id: string): Promise<string> {
  return (await server.db.selectFrom("documents").select("storage_key").where("id", "=", id).executeTakeFirstOrThrow()).storage_key;
}

async function stored(key: string): Promise<boolean> {
  try {
    (await server.deps.storage.get(key)).destroy();
    return true;
  } catch {
    return false;
  }
}

const ids = (res: ApiResponse) => (res.body as { id: string }[]).map((d) => d.id);

describe("delete moves a document to the trash", () => {
  it("takes it out of every listing, search, download and preview, and lists it in the trash with its dates", async () => {
    const folderId = await createFolder(alice, `Receipts ${randomUUID().slice(0, 6)}`);
    const inFolder = await upload(alice, { folderId, name: "trashme-folder.txt" });
    const inRoot = await upload(alice, { name: "trashme-root.txt" });
    const key = await storageKeyOf(inFolder.id);

    const before = server.clock.now().getTime();
    for (const doc of [inFolder, inRoot]) {
      const res = await alice.delete(`/api/documents/${doc.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    }

    expect(ids(await alice.get(`/api/documents/folder/${folderId}`))).not.toContain(inFolder.id);
    expect(ids(await alice.get("/api/documents/root"))).not.toContain(inRoot.id);
    expect(ids(await alice.get("/api/documents/search?q=trashme"))).toEqual([]);
    expect(ids(await alice.get("/api/documents/search"))).not.toContain(inRoot.id);
    for (const doc of [inFolder, inRoot]) {
      expect((await alice.get(`/api/documents/${doc.id}/download`)).body).toEqual({ detail: "Document not found" });
      expect((await alice.get(`/api/documents/${doc.id}/preview`)).status).toBe(404);
      expect((await alice.delete(`/api/documents/${doc.id}`)).status).toBe(404);
      expect((await alice.patch(`/api/documents/${doc.id}`, { name: "renamed.txt" })).body).toEqual({ detail: "Document not found" });
    }
    // The file stays until the document is deleted for good.
    expect(await stored(key)).toBe(true);

    const trash = (await alice.get("/api/trash")).body as Trashed[];
    const [first, second] = trash.filter((d) => d.id === inFolder.id || d.id === inRoot.id);
    // Newest deleted first; the one from the folder says where it came from.
    expect([first!.id, second!.id]).toEqual([inRoot.id, inFolder.id]);
    expect(second).toMatchObject({ original_filename: "trashme-folder.txt", folder_id: folderId, file_size: inFolder.file_size });
    expect(first!.folder_id).toBeNull();
    for (const item of [first!, second!]) {
      const deletedAt = new Date(item.deleted_at).getTime();
      expect(deletedAt).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(item.purge_at).getTime() - deletedAt).toBe(30 * DAY_MS);
    }
    // Nobody else sees it.
    expect(ids(await bob.get("/api/trash"))).not.toContain(inRoot.id);
  });

  it("restores a document into the folder it came from", async () => {
    const folderId = await createFolder(alice, `Taxes ${randomUUID().slice(0, 6)}`);
    const doc = await upload(alice, { folderId, name: "w2.pdf" });
    expect((await alice.delete(`/api/documents/${doc.id}`)).status).toBe(200);

    const restored = await alice.post(`/api/trash/${doc.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(doc);
    expect(ids(await alice.get(`/api/documents/folder/${folderId}`))).toContain(doc.id);
    expect(ids(await alice.get("/api/trash"))).not.toContain(doc.id);
    expect((await alice.post(`/api/trash/${doc.id}/restore`)).body).toEqual({ detail: "Document not found" });
    // A live document is not in the trash: neither restored nor deleted for good.
    expect((await alice.delete(`/api/trash/${doc.id}`)).status).toBe(404);
    expect(await stored(await storageKeyOf(doc.id))).toBe(true);
  });

  it("lets a folder holding only trashed documents be deleted, and restores them to the root then", async () => {
    const parent = await createFolder(alice, `Old ${randomUUID().slice(0, 6)}`);
    const folderId = await createFolder(alice, "2019", parent);
    const doc = await upload(alice, { folderId, name: "1099.pdf" });
    expect((await alice.delete(`/api/folders/${folderId}`)).body).toEqual({ detail: "Folder is not empty" });
    expect((await alice.delete(`/api/documents/${doc.id}`)).status).toBe(200);

    expect((await alice.delete(`/api/folders/${folderId}`)).status).toBe(200);
    expect((await alice.delete(`/api/folders/${parent}`)).status).toBe(200);
    const inTrash = ((await alice.get("/api/trash")).body as Trashed[]).find((d) => d.id === doc.id);
    expect(inTrash?.folder_id).toBeNull();

    const restored = await alice.post(`/api/trash/${doc.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.folder_id).toBeNull();
    expect(ids(await alice.get("/api/documents/root"))).toContain(doc.id);
  });

  it("restores to the folder or refuses the folder delete, never both, when the two race", async () => {
    for (let i = 0; i < 8; i++) {
      const folderId = await createFolder(alice, `Race ${randomUUID().slice(0, 8)}`);
      const doc = await upload(alice, { folderId });
      expect((await alice.delete(`/api/documents/${doc.id}`)).status).toBe(200);
      const [restore, folderDelete] = await Promise.all([alice.post(`/api/trash/${doc.id}/restore`), alice.delete(`/api/folders/${folderId}`)]);
      expect(restore.status).toBe(200);
      const row = await server.db.selectFrom("documents").select(["folder_id", "deleted_at"]).where("id", "=", doc.id).executeTakeFirstOrThrow();
      expect(row.deleted_at).toBeNull();
      if (folderDelete.status === 200) {
        expect(row.folder_id).toBeNull();
      } else {
        expect(folderDelete.body).toEqual({ detail: "Folder is not empty" });
        expect(row.folder_id).toBe(folderId);
      }
    }
  });

  it("deletes a trashed document for good: the row, then the file", async () => {
    const doc = await upload(alice, { name: "forever.bin" });
    const key = await storageKeyOf(doc.id);
    expect((await alice.delete(`/api/trash/${doc.id}`)).body).toEqual({ detail: "Document not found" });
    expect((await alice.delete(`/api/documents/${doc.id}`)).status).toBe(200);

    const res = await alice.delete(`/api/trash/${doc.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await server.db.selectFrom("documents").select("id").where("id", "=", doc.id).execute()).toEqual([]);
    expect(await stored(key)).toBe(false);
    expect((await alice.delete(`/api/trash/${doc.id}`)).status).toBe(404);
    expect((await alice.post(`/api/trash/${doc.id}/restore`)).status).toBe(404);
  });

  it("answers another client's trashed document exactly like a missing one", async () => {
    const doc = await upload(alice);
    expect((await alice.delete(`/api/documents/${doc.id}`)).status).toBe(200);
    const missing = randomUUID();
    for (const [method, path] of [
      ["POST", "/restore"],
      ["DELETE", ""],
    ] as const) {
      const foreign = await bob.request(method, `/api/trash/${doc.id}${path}`);
      const absent = await bob.request(method, `/api/trash/${missing}${path}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(absent.body);
    }
    expect(ids(await alice.get("/api/trash"))).toContain(doc.id);
    expect(await stored(await storageKeyOf(doc.id))).toBe(true);
  });
});

describe("the trash and the storage quota", () => {
  it("counts trashed documents until they are deleted for good", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    await server.db.updateTable("accounts").set({ storage_quota_mb: 1 }).where("id", "=", user.id).execute();
    const first = await upload(client, { bytes: 600 * 1024 });
    expect((await client.delete(`/api/documents/${first.id}`)).status).toBe(200);
    expect((await client.get("/api/documents/usage")).body).toEqual({ used_bytes: 600 * 1024, quota_bytes: MB });

    const form = new FormData();
    form.append("file", new Blob([randomBytes(600 * 1024)]), "second.bin");
    const refused = await client.request("POST", "/api/documents/upload", { body: form });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ detail: "Storage quota exceeded" });

    expect((await client.delete(`/api/trash/${first.id}`)).status).toBe(200);
    expect((await client.get("/api/documents/usage")).body.used_bytes).toBe(0);
    await upload(client, { bytes: 600 * 1024 });
  });
});

describe("purge after 30 days", () => {
  it("the hourly job deletes documents trashed more than 30 days ago, rows and files, and keeps the rest", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    const old = await upload(client, { name: "old.bin" });
    const restored = await upload(client, { name: "restored.bin" });
    const recent = await upload(client, { name: "recent.bin" });
    const live = await upload(client, { name: "live.bin" });
    const keys = { old: await storageKeyOf(old.id), restored: await storageKeyOf(restored.id), recent: await storageKeyOf(recent.id) };
    expect((await client.delete(`/api/documents/${old.id}`)).status).toBe(200);
    expect((await client.delete(`/api/documents/${restored.id}`)).status).toBe(200);
    server.clock.advance(2 * DAY_MS);
    expect((await client.delete(`/api/documents/${recent.id}`)).status).toBe(200);
    server.clock.advance(28 * DAY_MS + 60_000);
    // Past 30 days, but restored before the job ran: a restore wins. (The first session has expired.)
    const later = await loginClient(server.url, user);
    expect((await later.post(`/api/trash/${restored.id}/restore`)).status).toBe(200);

    try {
      const jobId = await server.deps.jobs.send("purge-trash", {});
      await expect
        .poll(async () => (await server.deps.jobs.boss.findJobs("purge-trash", { id: jobId }))[0]?.state, { timeout: 15_000 })
        .toBe("completed");
    } finally {
      server.clock.set(new Date());
    }
    const left = await server.db.selectFrom("documents").select("id").where("account_id", "=", user.id).execute();
    expect(left.map((r) => r.id).sort()).toEqual([restored.id, recent.id, live.id].sort());
    expect(await stored(keys.old)).toBe(false);
    expect(await stored(keys.restored)).toBe(true);
    expect(await stored(keys.recent)).toBe(true);
    expect(server.logs.some((line) => line.includes("documents purged from the trash"))).toBe(true);
  });

  it("purges in batches until nothing old is left", async () => {
    const user = await createUser(server.db);
    const deletedAt = new Date(server.clock.now().getTime() - 31 * DAY_MS);
    const rows = Array.from({ length: 230 }, () => ({
      account_id: user.id,
      original_filename: "bulk.bin",
      storage_key: randomUUID(),
      content_type: "application/octet-stream",
      file_size: 3,
      sha256: "0".repeat(64),
      deleted_at: deletedAt,
    }));
    for (const row of rows.slice(0, 5)) await server.deps.storage.put(row.storage_key, Readable.from([Buffer.from("old")]));
    await server.db.insertInto("documents").values(rows).execute();

    expect(await purgeExpiredTrash(server.deps)).toBeGreaterThanOrEqual(230);
    expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", user.id).execute()).toEqual([]);
    for (const row of rows.slice(0, 5)) expect(await stored(row.storage_key)).toBe(false);
  });
});

describe("the admin and the trash", () => {
  it("deletes into the owner's trash, lists every trash with the owner, restores, and leaves the trash out of the lists and stats", async () => {
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const folderId = await createFolder(alice, `Admin ${randomUUID().slice(0, 6)}`);
    const doc = await upload(alice, { folderId, name: `admin-trashed-${randomUUID().slice(0, 6)}.pdf` });
    const statsBefore = (await admin.get("/api/admin/stats")).body.stats.total_documents;

    expect((await admin.delete(`/api/admin/documents/${doc.id}`)).body).toEqual({ success: true, legal_hold: false });
    expect((await admin.get("/api/admin/stats")).body.stats.total_documents).toBe(statsBefore - 1);
    expect(ids(await admin.get(`/api/admin/documents?q=${doc.original_filename}`))).toEqual([]);
    const allDocuments = await admin.get("/api/admin/documents?limit=200");
    expect(ids(allDocuments)).not.toContain(doc.id);
    expect(Number(allDocuments.headers.get("x-total-count"))).toBe(statsBefore - 1);
    expect((await admin.get(`/api/admin/documents/${doc.id}/download`)).status).toBe(404);
    expect((await admin.get(`/api/admin/documents/${doc.id}/preview`)).status).toBe(404);
    expect(ids(await alice.get("/api/trash"))).toContain(doc.id);

    const trash = await admin.get(`/api/admin/trash?q=${doc.original_filename}`);
    expect(trash.status).toBe(200);
    expect(trash.headers.get("x-total-count")).toBe("1");
    expect(trash.body).toEqual([
      expect.objectContaining({ id: doc.id, folder_id: folderId, user_id: aliceUser.id, user_name: "Alice Trash", user_email: aliceUser.email }),
    ]);
    expect(ids(await admin.get("/api/admin/trash?q=Alice%20Trash&limit=200"))).toContain(doc.id);
    const firstPage = await admin.get("/api/admin/trash?limit=1");
    expect(firstPage.body).toHaveLength(1);
    expect(Number(firstPage.headers.get("x-total-count"))).toBeGreaterThanOrEqual(1);

    const restored = await admin.post(`/api/admin/trash/${doc.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(doc);
    expect(ids(await alice.get(`/api/documents/folder/${folderId}`))).toContain(doc.id);
    expect((await admin.post(`/api/admin/trash/${doc.id}/restore`)).body).toEqual({ detail: "Document not found" });
    expect((await admin.post(`/api/admin/trash/${randomUUID()}/restore`)).status).toBe(404);
  });
});
