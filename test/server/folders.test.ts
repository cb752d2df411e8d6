import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let alice: ApiClient;
let bob: ApiClient;
let aliceUser: UserFixture;

beforeAll(async () => {
  server = await startTestServer();
  aliceUser = await createUser(server.db);
  alice = await loginClient(server.url, aliceUser);
  bob = await loginClient(server.url, await createUser(server.db));
});
afterAll(() => server.close());

async function createFolder(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.post("/api/folders", body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string; parent_folder_id: string | null; color: string };
}

describe("folders", () => {
  it("nests three levels deep and lists them all with their parents", async () => {
    const top = await createFolder(alice, { name: "  Taxes  ", parent_folder_id: null });
    expect(top).toMatchObject({ name: "Taxes", parent_folder_id: null, color: "#3B82F6" });
    expect(Object.keys(top).sort()).toEqual(["color", "id", "is_private", "name", "parent_folder_id"]);
    const year = await createFolder(alice, { name: "2024", parent_folder_id: top.id, color: "#10B981" });
    const receipts = await createFolder(alice, { name: "Receipts", parent_folder_id: year.id, color: "#EC4899" });
    expect(receipts).toMatchObject({ parent_folder_id: year.id, color: "#EC4899" });

    const list = await alice.get("/api/folders");
    expect(list.status).toBe(200);
    expect(list.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: top.id, parent_folder_id: null }),
        expect.objectContaining({ id: year.id, parent_folder_id: top.id, name: "2024" }),
        expect.objectContaining({ id: receipts.id, parent_folder_id: year.id, name: "Receipts" }),
      ]),
    );
    expect(Object.keys(list.body[0]).sort()).toEqual(["color", "id", "is_private", "name", "parent_folder_id"]);
  });

  it("refuses a sibling with the same name (ignoring case) but allows it elsewhere", async () => {
    const parent = await createFolder(alice, { name: "Payroll" });
    await createFolder(alice, { name: "Q1", parent_folder_id: parent.id });
    const clash = await alice.post("/api/folders", { name: "q1 ", parent_folder_id: parent.id });
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toBe('A folder named "q1" already exists here');
    const rootClash = await alice.post("/api/folders", { name: "PAYROLL" });
    expect(rootClash.status).toBe(409);
    // Same name at another level, or for another user, is fine.
    await createFolder(alice, { name: "Q1" });
    await createFolder(bob, { name: "Payroll" });
  });

  it("validates name and colour", async () => {
    for (const name of ["", "   ", "x".repeat(101)]) {
      const res = await alice.post("/api/folders", { name });
      expect(res.status, name).toBe(422);
      expect(res.body.detail).toMatch(/Folder name/);
    }
    expect((await alice.post("/api/folders", { name: "x".repeat(100) })).status).toBe(201);
    const badColor = await alice.post("/api/folders", { name: "Red", color: "#FF0000" });
    expect(badColor.status).toBe(422);
    expect(badColor.body.detail).toMatch(/^Color must be one of/);
  });

  it("refuses a parent that belongs to someone else exactly like a missing one", async () => {
    const bobs = await createFolder(bob, { name: "Bob's" });
    const foreign = await alice.post("/api/folders", { name: "Sneaky", parent_folder_id: bobs.id });
    const missing = await alice.post("/api/folders", { name: "Sneaky", parent_folder_id: crypto.randomUUID() });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.detail).toBe("Parent folder not found");
    const count = await server.db
      .selectFrom("folders")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("name", "=", "Sneaky")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("deletes an empty folder and refuses a non-empty one without deleting anything", async () => {
    const outer = await createFolder(alice, { name: "Outer" });
    const inner = await createFolder(alice, { name: "Inner", parent_folder_id: outer.id });

    const refused = await alice.delete(`/api/folders/${outer.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: "Folder is not empty" });

    const form = new FormData();
    form.append("file", new Blob(["hello"], { type: "text/plain" }), "note.txt");
    form.append("folder_id", inner.id);
    expect((await alice.request("POST", "/api/documents/upload", { body: form })).status).toBe(201);
    const withDocument = await alice.delete(`/api/folders/${inner.id}`);
    expect(withDocument.status).toBe(409);
    expect(withDocument.body.detail).toBe("Folder is not empty");
    const ids = (await alice.get("/api/folders")).body.map((f: { id: string }) => f.id);
    expect(ids).toEqual(expect.arrayContaining([outer.id, inner.id]));
    expect((await alice.get(`/api/documents/folder/${inner.id}`)).body).toHaveLength(1);

    const empty = await createFolder(alice, { name: "Empty" });
    const deleted = await alice.delete(`/api/folders/${empty.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect((await alice.get("/api/folders")).body.map((f: { id: string }) => f.id)).not.toContain(empty.id);
    expect((await alice.delete(`/api/folders/${empty.id}`)).status).toBe(404);
  });

  it("never lets another user see or delete a folder", async () => {
    const mine = await createFolder(alice, { name: "Private" });
    expect((await bob.get("/api/folders")).body.map((f: { id: string }) => f.id)).not.toContain(mine.id);
    const foreign = await bob.delete(`/api/folders/${mine.id}`);
    const missing = await bob.delete(`/api/folders/${crypto.randomUUID()}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body).toEqual({ detail: "Folder not found" });
    expect((await alice.get("/api/folders")).body.map((f: { id: string }) => f.id)).toContain(mine.id);
  });

  it("answers 401 without a session", async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get("/api/folders")).status).toBe(401);
    expect((await anon.post("/api/folders", { name: "X" })).status).toBe(401);
    expect((await anon.delete(`/api/folders/${crypto.randomUUID()}`)).status).toBe(401);
  });

  it("works the same through tRPC", async () => {
    const res = await alice.get(`/trpc/folders.list`);
    expect(res.status).toBe(200);
    expect(res.body.result.data.json.length).toBeGreaterThan(0);
  });
});
