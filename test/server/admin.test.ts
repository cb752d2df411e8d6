import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let admin: UserFixture;
let adminClient: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server.db, { username: "office_admin", name: "Office Admin", is_admin: true });
  adminClient = await loginClient(server.url, admin, "admin");
});
afterAll(() => server.close());

async function storeDocument(userId: string, opts: { folderId?: string | null; filename?: string; content?: string } = {}) {
  const key = randomBytes(16).toString("hex");
  const content = opts.content ?? `content of ${key}`;
  await server.deps.storage.put(key, Readable.from([Buffer.from(content)]));
  return server.db
    .insertInto("documents")
    .values({
      account_id: userId,
      folder_id: opts.folderId ?? null,
      original_filename: opts.filename ?? "2023 W-2.pdf",
      storage_key: key,
      content_type: "text/plain",
      file_size: Buffer.byteLength(content),
      sha256: "0".repeat(64),
    })
    .returning(["id", "storage_key"])
    .executeTakeFirstOrThrow();
}

async function storedObjectExists(key: string): Promise<boolean> {
  try {
    (await server.deps.storage.get(key)).destroy();
    return true;
  } catch {
    return false;
  }
}

/** The admin stats as exact count(*)s (documents: the live ones, not the trash), to hold the kept counts against. */
async function exactCounts() {
  const count = async (table: "users" | "documents" | "appointments" | "folders") =>
    Number(
      (
        await server.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .$if(table === "documents", (q) => q.where(sql.ref("deleted_at"), "is", null))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    total_users: await count("users"),
    total_documents: await count("documents"),
    total_appointments: await count("appointments"),
    total_folders: await count("folders"),
  };
}

const uuid = "00000000-0000-4000-8000-000000000000";
const ADMIN_ENDPOINTS: Array<[string, string, unknown?]> = [
  ["GET", "/api/admin/stats"],
  ["GET", "/api/admin/users"],
  ["DELETE", `/api/admin/users/${uuid}`],
  ["GET", "/api/admin/documents"],
  ["GET", `/api/admin/documents/${uuid}/download`],
  ["DELETE", `/api/admin/documents/${uuid}`],
  ["GET", "/api/admin/site-content"],
  ["PUT", "/api/admin/site-content/hero/title", { value: "Hacked" }],
  ["POST", "/api/admin/init-site-content", {}],
  ["PUT", "/api/admin/testimonials", { testimonials: [] }],
  ["GET", "/api/admin/consultations"],
  ["PUT", `/api/admin/consultations/${uuid}`, { handled: true }],
  ["GET", "/api/admin/appointments"],
  ["POST", "/api/admin/appointments", { user_id: uuid, title: "x", appointment_date: "2030-01-01T10:00:00Z" }],
  ["PATCH", `/api/admin/appointments/${uuid}`, { status: "cancelled" }],
];

describe("admin access", () => {
  it.each(ADMIN_ENDPOINTS)("%s %s refuses anonymous callers (401) and clients (403)", async (method, path, json) => {
    const anon = await new ApiClient(server.url).request(method, path, { json });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ detail: "Not authenticated" });

    const client = await loginClient(server.url, await createUser(server.db));
    const res = await client.request(method, path, { json });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: "Admin access required" });

    // An admin who signed in through the client portal holds a client session: not enough either.
    const adminViaClientLogin = await loginClient(server.url, admin, "client");
    expect((await adminViaClientLogin.request(method, path, { json })).status).toBe(403);
  });

  it("changes nothing when refused", async () => {
    const before = await server.db.selectFrom("site_content").select("key").execute();
    const client = await loginClient(server.url, await createUser(server.db));
    await client.put("/api/admin/site-content/hero/title", { value: "Hacked" });
    await client.post("/api/admin/init-site-content", {});
    expect(await server.db.selectFrom("site_content").select("key").execute()).toEqual(before);
  });
});

describe("stats", () => {
  it("counts from the database, with the recent users and documents", async () => {
    const user = await createUser(server.db, { name: "Recent Client" });
    const folder = await server.db
      .insertInto("folders")
      .values({ account_id: user.id, name: "Taxes", color: "#3B82F6" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const doc = await storeDocument(user.id, { folderId: folder.id, filename: "recent.pdf" });
    await server.db
      .insertInto("appointments")
      .values({ account_id: user.id, title: "Review", appointment_date: new Date("2030-01-01T15:00:00Z"), status: "scheduled", description: "" })
      .execute();

    const res = await adminClient.get("/api/admin/stats");
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual(await exactCounts());
    expect(res.body.stats.total_documents).toBeGreaterThanOrEqual(1);
    expect(res.body.recent_users[0]).toMatchObject({ id: user.id, name: "Recent Client", email: user.email, is_admin: false });
    expect(res.body.recent_users[0]).not.toHaveProperty("password_hash");
    expect(res.body.recent_documents[0]).toMatchObject({
      id: doc.id,
      original_filename: "recent.pdf",
      user_name: "Recent Client",
      user_email: user.email,
    });
    expect(res.body.recent_documents[0]).not.toHaveProperty("storage_key");
  });
});

describe("kept row counts", () => {
  it("stay exact through multi-row statements, concurrent writes and a user's deletion", async () => {
    const owner = await createUser(server.db, { name: "Bulk Owner" });
    await server.db
      .insertInto("folders")
      .values(Array.from({ length: 25 }, (_, i) => ({ account_id: owner.id, name: `Year ${2000 + i}`, color: "#3B82F6" })))
      .execute();
    await Promise.all(Array.from({ length: 12 }, (_, i) => storeDocument(owner.id, { filename: `concurrent-${i}.pdf` })));
    await server.db.deleteFrom("folders").where("account_id", "=", owner.id).where("name", "like", "Year 201%").execute();

    const before = await adminClient.get("/api/admin/stats");
    expect(before.body.stats).toEqual(await exactCounts());

    expect((await adminClient.delete(`/api/admin/users/${owner.id}`)).status).toBe(200);
    const after = await adminClient.get("/api/admin/stats");
    expect(after.body.stats).toEqual(await exactCounts());
    expect(after.body.stats.total_users).toBe(before.body.stats.total_users - 1);
    expect(after.body.stats.total_documents).toBe(before.body.stats.total_documents - 12);
    expect(after.body.stats.total_folders).toBe(before.body.stats.total_folders - 15);

    const documents = await adminClient.get("/api/admin/documents");
    const users = await adminClient.get("/api/admin/users");
    expect(Number(documents.headers.get("x-total-count"))).toBe(after.body.stats.total_documents);
    expect(Number(users.headers.get("x-total-count"))).toBe(after.body.stats.total_users);
  });

  it("follow rows removed by a foreign-key cascade", async () => {
    const owner = await createUser(server.db, { name: "Cascade Owner" });
    const folder = await server.db
      .insertInto("folders")
      .values({ account_id: owner.id, name: "Cascade", color: "#3B82F6" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await storeDocument(owner.id, { folderId: folder.id });
    await storeDocument(owner.id);
    const before = (await adminClient.get("/api/admin/stats")).body.stats;

    await server.db.deleteFrom("users").where("id", "=", owner.id).execute();
    const after = (await adminClient.get("/api/admin/stats")).body.stats;
    expect(after).toEqual(await exactCounts());
    expect(after.total_documents).toBe(before.total_documents - 2);
    expect(after.total_folders).toBe(before.total_folders - 1);
  });

  it("drop to zero on TRUNCATE", async () => {
    await expect(
      server.db.transaction().execute(async (tx) => {
        await sql`truncate appointments`.execute(tx);
        const row = await tx.selectFrom("row_counts").select("row_count").where("table_name", "=", "appointments").executeTakeFirstOrThrow();
        expect(row.row_count).toBe(0);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
  });
});

describe("users", () => {
  it("lists users as a paged, searchable array with the total in a header", async () => {
    const tag = randomBytes(3).toString("hex");
    for (let i = 0; i < 3; i++) await createUser(server.db, { name: `Paging ${tag} ${i}` });
    const first = await adminClient.get(`/api/admin/users?q=${tag}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-total-count")).toBe("3");
    expect(first.body.map((u: { name: string }) => u.name)).toEqual([`Paging ${tag} 2`, `Paging ${tag} 1`]);
    const second = await adminClient.get(`/api/admin/users?q=${tag}&limit=2&cursor=${first.headers.get("x-next-cursor")}`);
    expect(second.body.map((u: { name: string }) => u.name)).toEqual([`Paging ${tag} 0`]);
    expect(second.headers.get("x-next-cursor")).toBeNull();

    const literal = await adminClient.get(`/api/admin/users?q=${encodeURIComponent("%")}`);
    expect(literal.status).toBe(200);
    expect(literal.body).toEqual([]);
    expect((await adminClient.get("/api/admin/users?limit=500")).status).toBe(422);
  });

  it("deletes a user with all their folders, documents, files, appointments and sessions", async () => {
    const user = await createUser(server.db);
    const other = await createUser(server.db);
    const session = await loginClient(server.url, user);
    const parent = await server.db
      .insertInto("folders")
      .values({ account_id: user.id, name: "2024", color: "#3B82F6" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const child = await server.db
      .insertInto("folders")
      .values({ account_id: user.id, name: "Receipts", color: "#EF4444", parent_folder_id: parent.id })
      .returning("id")
      .executeTakeFirstOrThrow();
    const docs = [
      await storeDocument(user.id),
      await storeDocument(user.id, { folderId: parent.id }),
      await storeDocument(user.id, { folderId: child.id }),
    ];
    const othersDoc = await storeDocument(other.id);
    await server.db
      .insertInto("appointments")
      .values({ account_id: user.id, title: "Tax review", appointment_date: new Date(), status: "scheduled", description: "" })
      .execute();

    const res = await adminClient.delete(`/api/admin/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    for (const table of ["folders", "documents", "appointments", "sessions"] as const) {
      // The person's own rows, and their account's (its id is theirs).
      const rows =
        table === "sessions"
          ? await server.db.selectFrom(table).select("user_id").where("user_id", "=", user.id).execute()
          : await server.db.selectFrom(table).select("account_id").where("account_id", "=", user.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await server.db.selectFrom("users").select("id").where("id", "=", user.id).execute()).toEqual([]);
    for (const doc of docs) expect(await storedObjectExists(doc.storage_key)).toBe(false);
    expect(await storedObjectExists(othersDoc.storage_key)).toBe(true);
    expect((await session.get("/api/auth/me")).status).toBe(401);

    const again = await adminClient.delete(`/api/admin/users/${user.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: "User not found" });
  });

  it("refuses to delete an admin", async () => {
    const otherAdmin = await createUser(server.db, { is_admin: true });
    for (const target of [otherAdmin, admin]) {
      const res = await adminClient.delete(`/api/admin/users/${target.id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: "Admin users cannot be deleted" });
    }
    expect(await server.db.selectFrom("users").select("id").where("id", "in", [otherAdmin.id, admin.id]).execute()).toHaveLength(2);
  });

  it("answers a malformed id with 4xx, not 500", async () => {
    expect((await adminClient.delete("/api/admin/users/not-a-uuid")).status).toBe(422);
  });
});

describe("documents", () => {
  it("lists every user's documents with their owner, searchable by filename", async () => {
    const user = await createUser(server.db, { name: "Document Owner" });
    const tag = randomBytes(3).toString("hex");
    const doc = await storeDocument(user.id, { filename: `ledger-${tag}.xlsx` });
    const res = await adminClient.get(`/api/admin/documents?q=${tag}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("1");
    expect(res.body).toEqual([
      expect.objectContaining({
        id: doc.id,
        original_filename: `ledger-${tag}.xlsx`,
        user_id: user.id,
        user_name: "Document Owner",
        user_email: user.email,
      }),
    ]);
    expect(res.body[0]).not.toHaveProperty("storage_key");
  });

  it("counts a search's matches up to 10,000 and says so when there are more", async () => {
    const user = await createUser(server.db);
    const tag = randomBytes(3).toString("hex");
    // Rows only: the list reads no stored files.
    await sql`
      insert into documents (account_id, original_filename, storage_key, content_type, file_size, sha256)
      select ${user.id}, 'statement-' || ${tag} || '-' || i || '.pdf', ${tag} || '-' || i, 'application/pdf', 1, repeat('0', 64)
      from generate_series(1, 10050) as i`.execute(server.db);
    const first = await adminClient.get(`/api/admin/documents?q=statement-${tag}&limit=50`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    expect(first.headers.get("x-total-count")).toBe("10000");
    expect(first.headers.get("x-total-capped")).toBe("true");
    expect(first.headers.get("x-next-cursor")).toBe("50");
    // Deep pages are counted as far as they reach: the last page knows it is the last.
    const last = await adminClient.get(`/api/admin/documents?q=statement-${tag}&limit=50&offset=10000`);
    expect(last.body).toHaveLength(50);
    expect(last.headers.get("x-total-count")).toBe("10050");
    expect(last.headers.get("x-total-capped")).toBeNull();
    expect(last.headers.get("x-next-cursor")).toBeNull();
    const trpcPage = await adminClient.get(
      `/trpc/admin.documents.list?input=${encodeURIComponent(JSON.stringify({ json: { q: `statement-${tag}`, limit: 50 } }))}`,
    );
    expect(trpcPage.body.result.data.json).toMatchObject({ total: 10000, totalCapped: true, nextCursor: 50 });
    await server.db.deleteFrom("documents").where("account_id", "=", user.id).execute();
  });

  it("downloads any document as an attachment", async () => {
    const user = await createUser(server.db);
    const doc = await storeDocument(user.id, { filename: "Return 2023.pdf", content: "the tax return" });
    const res = await adminClient.get(`/api/admin/documents/${doc.id}/download`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("the tax return");
    expect(res.headers.get("content-disposition")).toContain("attachment");
    expect(res.headers.get("content-disposition")).toContain("Return 2023.pdf");
    expect((await adminClient.get(`/api/admin/documents/${uuid}/download`)).status).toBe(404);
  });

  it("deletes any document into its owner's trash, keeping its stored file", async () => {
    const user = await createUser(server.db);
    const doc = await storeDocument(user.id);
    const res = await adminClient.delete(`/api/admin/documents/${doc.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, legal_hold: false });
    const [row] = await server.db.selectFrom("documents").select(["id", "deleted_at"]).where("id", "=", doc.id).execute();
    expect(row!.deleted_at).toBeInstanceOf(Date);
    expect(await storedObjectExists(doc.storage_key)).toBe(true);
    expect((await adminClient.delete(`/api/admin/documents/${doc.id}`)).status).toBe(404);
    expect((await adminClient.get(`/api/admin/documents/${doc.id}/download`)).status).toBe(404);
  });
});

describe("consultation requests", () => {
  it("lists requests newest first and marks them handled and back", async () => {
    const anon = new ApiClient(server.url);
    const tag = randomBytes(3).toString("hex");
    for (const name of [`Early ${tag}`, `Late ${tag}`]) {
      expect(
        (await anon.post("/api/consultation/request", { name, email: "c@example.com", phone: "555-010-9999", preferredDate: "2030-05-06" })).status,
      ).toBe(200);
    }
    const list = await adminClient.get(`/api/admin/consultations?q=${tag}`);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("2");
    expect(list.body.map((c: { name: string }) => c.name)).toEqual([`Late ${tag}`, `Early ${tag}`]);
    expect(list.body[0]).toMatchObject({ preferredDate: "2030-05-06", preferredTime: null, handled_at: null });

    const id = list.body[0].id;
    expect((await adminClient.put(`/api/admin/consultations/${id}`, { handled: true })).status).toBe(200);
    expect((await adminClient.get(`/api/admin/consultations?q=${tag}`)).body[0].handled_at).not.toBeNull();
    expect((await adminClient.put(`/api/admin/consultations/${id}`, { handled: false })).status).toBe(200);
    expect((await adminClient.get(`/api/admin/consultations?q=${tag}`)).body[0].handled_at).toBeNull();
    expect((await adminClient.put(`/api/admin/consultations/${uuid}`, { handled: true })).status).toBe(404);
  });
});
