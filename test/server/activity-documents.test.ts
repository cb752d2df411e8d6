// The activity trail records every change to documents and folders, and every time one is read,
// in the same transaction as the change: the owner's own actions and the firm's actions on a
// client's documents land in that client's trail, with who acted, what and where.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let alice: ApiClient;
let aliceUser: UserFixture;
let admin: ApiClient;
let adminUser: UserFixture;

beforeAll(async () => {
  server = await startTestServer();
  aliceUser = await createUser(server.db, { name: "Alice Activity" });
  alice = await loginClient(server.url, aliceUser);
  adminUser = await createUser(server.db, { is_admin: true });
  admin = await loginClient(server.url, adminUser, "admin");
});
afterAll(() => server.close());

async function eventsOf(clientId: string, action: string) {
  return server.db
    .selectFrom("activity_events")
    .selectAll()
    .select("account_id as client_id")
    .where("account_id", "=", clientId)
    .where("action", "=", action)
    .orderBy("id", "desc")
    .execute();
}

async function upload(name: string, folderId?: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([randomBytes(200)], { type: "text/plain" }), name);
  if (folderId) form.append("folder_id", folderId);
  const res = await alice.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe("documents and folders in the trail", () => {
  it("records folder changes and an upload with its folder, by the client, with IP and browser", async () => {
    const created = await alice.post("/api/folders", { name: "Taxes 2025" });
    expect(created.status, created.text).toBe(201);
    const folderId = created.body.id as string;
    const [create] = await eventsOf(aliceUser.id, "folder.create");
    expect(create).toMatchObject({
      actor_id: aliceUser.id,
      actor_role: "client",
      target_type: "folder",
      target_id: folderId,
      detail: { folder: "Taxes 2025" },
    });
    expect(create!.client_label).toBe(aliceUser.username);

    const documentId = await upload("w2.txt", folderId);
    const [uploaded] = await eventsOf(aliceUser.id, "document.upload");
    expect(uploaded).toMatchObject({ target_id: documentId, detail: { filename: "w2.txt", folder: "Taxes 2025" }, actor_role: "client" });
    expect(uploaded!.ip).toBeTruthy();
    expect(uploaded!.user_agent).toBeTruthy();

    const renamed = await alice.patch(`/api/folders/${folderId}`, { name: "Taxes 2024" });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await eventsOf(aliceUser.id, "folder.update"))[0]).toMatchObject({ detail: { folder: "Taxes 2024", changes: ["name"] } });
  });

  it("records rename (with the old name), move, trash, restore and delete for good", async () => {
    const documentId = await upload("scan.txt");
    const folder = await alice.post("/api/folders", { name: "Receipts" });
    expect((await alice.patch(`/api/documents/${documentId}`, { name: "receipt.txt" })).status).toBe(200);
    expect((await eventsOf(aliceUser.id, "document.rename"))[0]).toMatchObject({
      target_id: documentId,
      detail: { filename: "receipt.txt", from: "scan.txt" },
    });
    // The same name again changes nothing and records no rename.
    expect((await alice.patch(`/api/documents/${documentId}`, { name: "receipt.txt" })).status).toBe(200);
    expect(await eventsOf(aliceUser.id, "document.rename")).toHaveLength(1);

    expect((await alice.patch(`/api/documents/${documentId}`, { folder_id: folder.body.id })).status).toBe(200);
    expect((await eventsOf(aliceUser.id, "document.move"))[0]).toMatchObject({ detail: { filename: "receipt.txt", folder: "Receipts" } });

    expect((await alice.delete(`/api/documents/${documentId}`)).status).toBe(200);
    expect((await eventsOf(aliceUser.id, "document.trash"))[0]).toMatchObject({ target_id: documentId, detail: { filename: "receipt.txt" } });
    expect((await alice.post(`/api/trash/${documentId}/restore`)).status).toBe(200);
    expect((await eventsOf(aliceUser.id, "document.restore"))[0]).toMatchObject({ target_id: documentId, detail: { folder: "Receipts" } });
    expect((await alice.delete(`/api/documents/${documentId}`)).status).toBe(200);
    expect((await alice.delete(`/api/trash/${documentId}`)).status).toBe(200);
    expect((await eventsOf(aliceUser.id, "document.delete"))[0]).toMatchObject({ target_id: documentId, detail: { filename: "receipt.txt" } });
  });

  it("records the client's downloads, previews and ZIPs, and a refused one not at all", async () => {
    const documentId = await upload("letter.txt");
    expect((await alice.get(`/api/documents/${documentId}/download`)).status).toBe(200);
    expect((await alice.get(`/api/documents/${documentId}/preview`)).status).toBe(200);
    expect((await eventsOf(aliceUser.id, "document.download"))[0]).toMatchObject({ target_id: documentId, actor_role: "client" });
    expect((await eventsOf(aliceUser.id, "document.preview"))[0]).toMatchObject({ target_id: documentId });

    const bob = await loginClient(server.url, await createUser(server.db));
    const before = (await eventsOf(aliceUser.id, "document.download")).length;
    expect((await bob.get(`/api/documents/${documentId}/download`)).status).toBe(404);
    expect(await eventsOf(aliceUser.id, "document.download")).toHaveLength(before);

    expect((await alice.get("/api/folders/root/download")).status).toBe(200);
    const [zip] = await eventsOf(aliceUser.id, "document.download");
    expect(zip!.detail).toMatchObject({ archive: true, folder: null });
  });

  it("records one view per person and document a minute, however often the viewer asks for the file", async () => {
    const documentId = await upload("w9.txt");
    const previews = async () => (await eventsOf(aliceUser.id, "document.preview")).filter((event) => event.target_id === documentId);
    for (let i = 0; i < 3; i++) expect((await alice.get(`/api/documents/${documentId}/preview`)).status).toBe(200);
    expect(await previews()).toHaveLength(1);
    // The firm looking is an event of its own.
    expect((await admin.get(`/api/admin/documents/${documentId}/preview`)).status).toBe(200);
    expect(await previews()).toHaveLength(2);
    // Downloads are each recorded: each is a copy leaving the portal.
    for (let i = 0; i < 2; i++) expect((await alice.get(`/api/documents/${documentId}/download`)).status).toBe(200);
    expect((await eventsOf(aliceUser.id, "document.download")).filter((event) => event.target_id === documentId)).toHaveLength(2);
    // A minute later, a new look.
    server.clock.advance(61_000);
    expect((await alice.get(`/api/documents/${documentId}/preview`)).status).toBe(200);
    expect(await previews()).toHaveLength(3);
  });

  it("puts the firm's views, downloads and deletes of a client's document in that client's trail", async () => {
    const documentId = await upload("return.txt");
    expect((await admin.get(`/api/admin/documents/${documentId}/preview`)).status).toBe(200);
    expect((await admin.get(`/api/admin/documents/${documentId}/download`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/documents/${documentId}`)).status).toBe(200);
    for (const action of ["document.preview", "document.download", "document.trash"]) {
      const [event] = await eventsOf(aliceUser.id, action);
      expect(event, action).toMatchObject({
        actor_id: adminUser.id,
        actor_role: "admin",
        actor_label: adminUser.username,
        client_id: aliceUser.id,
        client_label: aliceUser.username,
        target_id: documentId,
      });
    }
  });

  it("keeps the trail append-only: the database refuses to change or remove an entry", async () => {
    await expect(server.db.updateTable("activity_events").set({ action: "auth.sign_in" }).execute()).rejects.toThrow(/append-only/);
    await expect(server.db.deleteFrom("activity_events").execute()).rejects.toThrow(/append-only/);
  });
});
