// Issue 47 item 6, replayed over real HTTP: GET /api/admin/stats listed the newest documents (names,
// uploader and email) to any of the firm's people, also to a staff member without the `documents`
// right, whom every documents path refuses. The key is now absent for them; the counts stay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: UserFixture;
let ownerApi: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createStaffMember(server.db, "owner");
  ownerApi = await loginClient(server.url, owner, "admin");
});
afterAll(() => server?.close());

async function uploadAs(api: ApiClient, name: string): Promise<void> {
  const form = new FormData();
  form.append("file", new Blob(["a client's file"]), name);
  const res = await api.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
}

describe("the overview's recent documents (item 6)", () => {
  it("go only to those who hold the documents right; the counts and recent people stay for everyone", async () => {
    const client = await createUser(server.db, { name: "Rita Recent" });
    await uploadAs(await loginClient(server.url, client), "Rita 2025 W-2.pdf");

    const without = await loginClient(server.url, await createStaffMember(server.db, "staff", ["messages", "all_clients"]), "admin");
    const seen = await without.get("/api/admin/stats");
    expect(seen.status, seen.text).toBe(200);
    expect(Object.keys(seen.body).sort()).toEqual(["recent_users", "stats"]);
    expect(seen.text).not.toContain("Rita 2025 W-2.pdf");
    expect(seen.body.stats.total_documents).toBeGreaterThanOrEqual(1);
    // The documents list itself was already refused them; the overview now agrees.
    expect((await without.get("/api/admin/documents")).status).toBe(403);

    for (const api of [
      ownerApi,
      await loginClient(server.url, await createStaffMember(server.db, "staff", ["documents", "all_clients"]), "admin"),
      await loginClient(server.url, await createStaffMember(server.db, "admin"), "admin"),
    ]) {
      const stats = await api.get("/api/admin/stats");
      expect(stats.status, stats.text).toBe(200);
      expect((stats.body.recent_documents as { original_filename: string }[]).map((d) => d.original_filename)).toContain("Rita 2025 W-2.pdf");
    }
  });
});
