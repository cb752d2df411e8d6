// Find, sort, rename and move (issue 17): the caller's documents searched across all folders with
// each one's folder path, documents renamed and moved, folders renamed, recoloured and moved
// without ever making a cycle.
import { randomBytes, randomUUID } from "node:crypto";
import { CompiledQuery, sql } from "kysely";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { searchDocumentsQuery } from "../../server/domains/documents/queries.ts";
import { documentSearchInput } from "../../server/domains/documents/schemas.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient, ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { trpc } from "../security/helpers.ts";

let server: TestServer;
let alice: ApiClient;
let aliceUser: UserFixture;
let bob: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  aliceUser = await createUser(server.db);
  alice = await loginClient(server.url, aliceUser);
  bob = await loginClient(server.url, await createUser(server.db));
});
afterAll(() => server.close());

type Document = { id: string; original_filename: string; upload_date: string; file_size: number; folder_id: string | null; content_type: string };
type Found = Document & { folder_path: { id: string; name: string }[] };
type Folder = { id: string; name: string; parent_folder_id: string | null; color: string };

async function upload(client: ApiClient, name: string, opts: { folderId?: string | null; bytes?: number } = {}): Promise<Document> {
  const form = new FormData();
  form.append("file", new Blob([randomBytes(opts.bytes ?? 100)]), name);
  if (opts.folderId) form.append("folder_id", opts.folderId);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function createFolder(client: ApiClient, name: string, parentId: string | null = null): Promise<Folder> {
  const res = await client.post("/api/folders", { name, parent_folder_id: parentId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const ids = (res: ApiResponse) => (res.body as { id: string }[]).map((d) => d.id);

describe("GET /api/documents/search", () => {
  // A user of its own, so other tests' documents do not get in the way.
  let client: ApiClient;
  let docs: Record<"w2" | "w2Upper" | "receipt" | "percent" | "root", Document>;
  let folders: { taxes: Folder; y2024: Folder };

  beforeAll(async () => {
    client = await loginClient(server.url, await createUser(server.db));
    const taxes = await createFolder(client, "Taxes");
    const y2024 = await createFolder(client, "2024", taxes.id);
    folders = { taxes, y2024 };
    docs = {
      w2: await upload(client, "employer-w2.pdf", { folderId: y2024.id, bytes: 300 }),
      w2Upper: await upload(client, "SECOND-W2.PDF", { folderId: taxes.id, bytes: 100 }),
      receipt: await upload(client, "b receipt.jpg", { folderId: taxes.id, bytes: 200 }),
      percent: await upload(client, "100% done_v2.txt", { bytes: 300 }),
      root: await upload(client, "a notes.txt", { bytes: 50 }),
    };
  });

  it("matches part of the name in any case, across folders, each result with its folder path from the root", async () => {
    const res = await client.get("/api/documents/search?q=w2");
    expect(res.status).toBe(200);
    const found = res.body as Found[];
    expect(found.map((d) => d.id).sort()).toEqual([docs.w2.id, docs.w2Upper.id].sort());
    const w2 = found.find((d) => d.id === docs.w2.id)!;
    expect(w2).toEqual({
      ...docs.w2,
      matched_in: "name",
      folder_path: [
        { id: folders.taxes.id, name: "Taxes" },
        { id: folders.y2024.id, name: "2024" },
      ],
    });
    expect(found.find((d) => d.id === docs.w2Upper.id)!.folder_path).toEqual([{ id: folders.taxes.id, name: "Taxes" }]);
    const inRoot = (await client.get("/api/documents/search?q=notes")).body as Found[];
    expect(inRoot).toEqual([{ ...docs.root, folder_path: [], matched_in: "name" }]);
    // Surrounding spaces are not part of the search.
    expect(ids(await client.get("/api/documents/search?q=%20%20NOTES%20"))).toEqual([docs.root.id]);
  });

  it("takes %, _ and \\ literally", async () => {
    expect(ids(await client.get(`/api/documents/search?q=${encodeURIComponent("100%")}`))).toEqual([docs.percent.id]);
    expect(ids(await client.get(`/api/documents/search?q=${encodeURIComponent("e_v")}`))).toEqual([docs.percent.id]);
    expect(ids(await client.get(`/api/documents/search?q=${encodeURIComponent("%")}`))).toEqual([docs.percent.id]);
    expect(ids(await client.get(`/api/documents/search?q=${encodeURIComponent("_")}`))).toEqual([docs.percent.id]);
    expect(ids(await client.get(`/api/documents/search?q=${encodeURIComponent("\\")}`))).toEqual([]);
  });

  it("lists everything without q, newest first, and sorts by name, date or size either way, ties by id", async () => {
    const all = Object.values(docs);
    const byDate = [...all].sort((a, b) => a.upload_date.localeCompare(b.upload_date) || a.id.localeCompare(b.id));
    expect(ids(await client.get("/api/documents/search"))).toEqual(byDate.map((d) => d.id).reverse());
    expect(ids(await client.get("/api/documents/search?q="))).toEqual(byDate.map((d) => d.id).reverse());
    expect(ids(await client.get("/api/documents/search?sort=date&order=asc"))).toEqual(byDate.map((d) => d.id));

    const byName = [docs.root, docs.receipt, docs.percent, docs.w2, docs.w2Upper].map((d) => d.id);
    expect(byName.slice(0, 3)).toEqual([docs.root.id, docs.receipt.id, docs.percent.id]);
    const nameOrder = (await client.get("/api/documents/search?sort=name&order=asc")).body as Found[];
    // Case does not decide the order: "employer-w2.pdf" < "SECOND-W2.PDF" although "S" < "e" in ASCII.
    expect(nameOrder.map((d) => d.original_filename)).toEqual([
      "100% done_v2.txt",
      "a notes.txt",
      "b receipt.jpg",
      "employer-w2.pdf",
      "SECOND-W2.PDF",
    ]);
    const nameDesc = (await client.get("/api/documents/search?sort=name&order=desc")).body as Found[];
    expect(nameDesc.map((d) => d.id)).toEqual(nameOrder.map((d) => d.id).reverse());

    const sizeAsc = (await client.get("/api/documents/search?sort=size&order=asc")).body as Found[];
    expect(sizeAsc.map((d) => d.file_size)).toEqual([50, 100, 200, 300, 300]);
    // Two of 300 bytes: the smaller id first when ascending, last when descending.
    const [a, b] = [docs.w2.id, docs.percent.id].sort();
    expect(sizeAsc.slice(3).map((d) => d.id)).toEqual([a, b]);
    const sizeDesc = (await client.get("/api/documents/search?sort=size")).body as Found[];
    expect(sizeDesc.slice(0, 2).map((d) => d.id)).toEqual([b, a]);
  });

  it("answers at most `limit` results", async () => {
    expect((await client.get("/api/documents/search?limit=2")).body).toHaveLength(2);
    expect((await client.get("/api/documents/search?limit=500")).body).toHaveLength(5);
  });

  it("finds only the caller's own live documents", async () => {
    const secret = await upload(alice, `only-alice-${randomUUID()}.pdf`);
    expect(ids(await bob.get(`/api/documents/search?q=${secret.original_filename}`))).toEqual([]);
    expect(ids(await alice.get(`/api/documents/search?q=${secret.original_filename}`))).toEqual([secret.id]);
    expect((await alice.delete(`/api/documents/${secret.id}`)).status).toBe(200);
    expect(ids(await alice.get(`/api/documents/search?q=${secret.original_filename}`))).toEqual([]);
  });

  it("is the same over tRPC", async () => {
    const res = await trpc(client, "documents.search", "query", { q: "W2", sort: "name", order: "asc" });
    expect(res.status).toBe(200);
    expect((res.data as Found[]).map((d) => d.id)).toEqual([docs.w2.id, docs.w2Upper.id]);
  });

  it("refuses bad parameters with 422 and a detail", async () => {
    const cases: [string, string][] = [
      [`q=${"x".repeat(201)}`, "Search text must be at most 200 characters"],
      ["sort=owner", "Sort must be name, date, size or relevance"],
      ["source=bank", "Source must be firm or client"],
      ["year=soon", "Year must be a year such as 2025"],
      ["year=25", "Year must be a year such as 2025"],
      ["order=up", "Order must be asc or desc"],
      ["limit=0", "limit: Too small: expected number to be >=1"],
      ["limit=501", "limit: Too big: expected number to be <=500"],
      ["limit=ten", "limit: Invalid input: expected number, received NaN"],
    ];
    for (const [query, detail] of cases) {
      const res = await client.get(`/api/documents/search?${query}`);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 422, body: { detail } });
    }
  });
});

describe("the search plan", () => {
  it("reads the caller's documents through an index that starts with user_id, among many users", async () => {
    const seeded = await createUser(server.db);
    // In statements of 2,500 documents: each indexes its names' words (search_vector), and the
    // embedded database, in this process, would otherwise hold up the server's timers for seconds.
    // Rows with no stored content: marked as having had their text read, so the text backfill
    // (content search) does not go through them.
    for (let chunk = 0; chunk < 8; chunk++) {
      await sql`
        with new_users as (
          insert into users (username, email, name)
          select 'plan-' || i || '-' || ${randomUUID()}, 'plan-' || i || '-' || ${randomUUID()} || '@example.com', 'Plan ' || i
          from generate_series(1, 50) as i
          returning id
        ), new_accounts as (
          insert into accounts (id, name, kind) select id, 'Plan', 'individual' from new_users
          returning id
        )
        insert into documents (account_id, original_filename, storage_key, content_type, file_size, sha256, text_extracted_at)
        select u.id, 'statement-' || j || '.pdf', gen_random_uuid()::text, 'application/pdf', j, md5(j::text), now()
        from new_accounts u, generate_series(1, 50) as j`.execute(server.db);
    }
    await sql`
      insert into documents (account_id, original_filename, storage_key, content_type, file_size, sha256, text_extracted_at)
      select ${seeded.id}, 'statement-' || j || '.pdf', gen_random_uuid()::text, 'application/pdf', j, md5(j::text), now()
      from generate_series(1, 300) as j`.execute(server.db);
    await sql`analyze documents`.execute(server.db);

    const { rows: indexes } = await sql<{ name: string; first_column: string }>`
      select c.relname as name, a.attname as first_column
      from pg_index i join pg_class c on c.oid = i.indexrelid
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
      where i.indrelid = 'documents'::regclass`.execute(server.db);
    const startsWithUser = new Set(indexes.filter((i) => i.first_column === "account_id").map((i) => i.name));

    for (const sort of ["date", "name", "size", "relevance"] as const) {
      for (const q of [undefined, "statement-1", "income tax return"]) {
        const input = documentSearchInput.parse({ q, sort });
        const compiled = searchDocumentsQuery(server.db, seeded.id, seeded.id, input).compile();
        const { rows } = await server.db.executeQuery<{ "QUERY PLAN": unknown }>(
          CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
        );
        const plan = JSON.stringify(rows[0]!["QUERY PLAN"]);
        const used = [...plan.matchAll(/"Index Name":"(\w+)"/g)].map((m) => m[1]!);
        expect({ sort, q, usesUserIndex: used.some((name) => startsWithUser.has(name)) }).toEqual({ sort, q, usesUserIndex: true });
        // No pass over every document; the private-folder check may read the few folders whole.
        expect(seqScansOf(rows[0]!["QUERY PLAN"])).not.toContain("documents");
      }
    }
  });
});

describe("the firm's search by account name", () => {
  it("matches an account's name through its trigram index, not by reading every account", async () => {
    // The firm's document, request, appointment and account searches match accounts.name with
    // ILIKE '%text%' (server/domains/*/queries.ts). On a small table the planner rightly reads
    // every row; with sequential scans priced out it must have an index to use instead.
    const plan = await server.db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const { rows } = await sql<{ "QUERY PLAN": unknown }>`
        explain (format json) select id from accounts where name ilike ${"%household 7%"}`.execute(tx);
      return JSON.stringify(rows[0]!["QUERY PLAN"]);
    });
    expect(plan).toContain('"Index Name":"accounts_name_trgm_idx"');
    expect(plan).not.toContain('"Seq Scan"');
  });
});

describe("PATCH /api/documents/:id", () => {
  it("renames a document, cleaning the name as an upload's", async () => {
    const doc = await upload(alice, "scan.pdf");
    const res = await alice.patch(`/api/documents/${doc.id}`, { name: "  2024 W-2\u202E.pdf  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...doc, original_filename: "2024 W-2.pdf" });
    expect((await alice.patch(`/api/documents/${doc.id}`, { name: "../../etc/passwd" })).body.original_filename).toBe("passwd");
    expect((await alice.get("/api/documents/root")).body.find((d: Document) => d.id === doc.id).original_filename).toBe("passwd");
  });

  it("moves a document into a folder and back to the root", async () => {
    const folder = await createFolder(alice, `Move ${randomUUID().slice(0, 6)}`);
    const doc = await upload(alice, "move-me.pdf");
    const moved = await alice.patch(`/api/documents/${doc.id}`, { folder_id: folder.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ ...doc, folder_id: folder.id });
    expect(ids(await alice.get(`/api/documents/folder/${folder.id}`))).toEqual([doc.id]);
    expect(ids(await alice.get("/api/documents/root"))).not.toContain(doc.id);

    const both = await alice.patch(`/api/documents/${doc.id}`, { folder_id: null, name: "moved back.pdf" });
    expect(both.body).toEqual({ ...doc, folder_id: null, original_filename: "moved back.pdf" });
    expect(ids(await alice.get(`/api/documents/folder/${folder.id}`))).toEqual([]);
    const viaTrpc = await trpc(alice, "documents.update", "mutation", { id: doc.id, folder_id: folder.id });
    expect(viaTrpc.status).toBe(200);
    expect((viaTrpc.data as Document).folder_id).toBe(folder.id);
  });

  it("answers 404 for another client's document or folder exactly like missing ones, and changes nothing", async () => {
    const doc = await upload(alice, "mine.pdf");
    const aliceFolder = await createFolder(alice, `Alice ${randomUUID().slice(0, 6)}`);
    const bobDoc = await upload(bob, "bobs.pdf");
    const missing = randomUUID();

    const foreignDoc = await bob.patch(`/api/documents/${doc.id}`, { name: "stolen.pdf" });
    expect(foreignDoc.status).toBe(404);
    expect(foreignDoc.body).toEqual({ detail: "Document not found" });
    expect((await bob.patch(`/api/documents/${missing}`, { name: "stolen.pdf" })).body).toEqual(foreignDoc.body);

    const intoForeign = await bob.patch(`/api/documents/${bobDoc.id}`, { folder_id: aliceFolder.id });
    expect(intoForeign.status).toBe(404);
    expect(intoForeign.body).toEqual({ detail: "Folder not found" });
    expect((await bob.patch(`/api/documents/${bobDoc.id}`, { folder_id: missing })).body).toEqual(intoForeign.body);

    expect(ids(await alice.get("/api/documents/root"))).toContain(doc.id);
    expect((await alice.get("/api/documents/root")).body.find((d: Document) => d.id === doc.id).original_filename).toBe("mine.pdf");
    expect(ids(await alice.get(`/api/documents/folder/${aliceFolder.id}`))).toEqual([]);
  });

  it("refuses a bad body with 422 and a detail", async () => {
    const doc = await upload(alice, "valid.pdf");
    const cases: [unknown, string][] = [
      [{}, "Nothing to change: give a name or a folder_id"],
      [{ name: "   " }, "Name is required"],
      [{ name: "x".repeat(256) }, "Name must be at most 255 characters"],
      [{ name: 42 }, "Name must be text"],
      [{ folder_id: "not-a-uuid" }, "Not found"],
    ];
    for (const [body, detail] of cases) {
      const res = await alice.patch(`/api/documents/${doc.id}`, body);
      expect({ body, status: res.status, detail: res.body.detail }).toEqual({ body, status: 422, detail });
    }
  });
});

describe("PATCH /api/folders/:id", () => {
  it("renames, recolours and moves a folder, and back to the root", async () => {
    const parent = await createFolder(alice, `Parent ${randomUUID().slice(0, 6)}`);
    const folder = await createFolder(alice, `Child ${randomUUID().slice(0, 6)}`);
    const renamed = await alice.patch(`/api/folders/${folder.id}`, { name: "  Receipts 2024 ", color: "#EF4444" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id: folder.id, name: "Receipts 2024", color: "#EF4444", parent_folder_id: null, is_private: false });

    const moved = await alice.patch(`/api/folders/${folder.id}`, { parent_folder_id: parent.id });
    expect(moved.body).toEqual({ ...renamed.body, parent_folder_id: parent.id });
    expect((await alice.get("/api/folders")).body.find((f: Folder) => f.id === folder.id).parent_folder_id).toBe(parent.id);
    expect((await alice.patch(`/api/folders/${folder.id}`, { parent_folder_id: null })).body.parent_folder_id).toBeNull();
    const viaTrpc = await trpc(alice, "folders.update", "mutation", { id: folder.id, color: "#10B981" });
    expect((viaTrpc.data as Folder).color).toBe("#10B981");
  });

  it("keeps sibling names unique (409), case-insensitively, when renaming and when moving", async () => {
    const parent = await createFolder(alice, `Siblings ${randomUUID().slice(0, 6)}`);
    await createFolder(alice, "Invoices", parent.id);
    const other = await createFolder(alice, "Bills", parent.id);
    const clash = await alice.patch(`/api/folders/${other.id}`, { name: "invoices" });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ detail: "A folder with this name already exists" });

    const outside = await createFolder(alice, "Invoices");
    const moveClash = await alice.patch(`/api/folders/${outside.id}`, { parent_folder_id: parent.id });
    expect(moveClash.status).toBe(409);
    expect(moveClash.body).toEqual({ detail: "A folder with this name already exists" });
    expect((await alice.get("/api/folders")).body.find((f: Folder) => f.id === outside.id).parent_folder_id).toBeNull();
    // Its own name in another case is no clash.
    expect((await alice.patch(`/api/folders/${other.id}`, { name: "BILLS" })).status).toBe(200);
  });

  it("refuses to move a folder into itself or anything below it (422)", async () => {
    const top = await createFolder(alice, `Top ${randomUUID().slice(0, 6)}`);
    const middle = await createFolder(alice, "Middle", top.id);
    const bottom = await createFolder(alice, "Bottom", middle.id);
    for (const target of [top, middle, bottom]) {
      const res = await alice.patch(`/api/folders/${top.id}`, { parent_folder_id: target.id });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: "A folder cannot be moved into itself" });
    }
    // Down the tree is fine: the bottom folder moves up next to the top one.
    expect((await alice.patch(`/api/folders/${bottom.id}`, { parent_folder_id: null })).status).toBe(200);
    expect((await alice.patch(`/api/folders/${middle.id}`, { parent_folder_id: bottom.id })).status).toBe(200);
  });

  it("answers 404 for another client's folder or parent exactly like missing ones", async () => {
    const aliceFolder = await createFolder(alice, `Private ${randomUUID().slice(0, 6)}`);
    const bobFolder = await createFolder(bob, `Bob ${randomUUID().slice(0, 6)}`);
    const missing = randomUUID();

    for (const body of [{ name: "Stolen" }, { parent_folder_id: null }]) {
      const foreign = await bob.patch(`/api/folders/${aliceFolder.id}`, body);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ detail: "Folder not found" });
      expect((await bob.patch(`/api/folders/${missing}`, body)).body).toEqual(foreign.body);
    }
    const intoForeign = await bob.patch(`/api/folders/${bobFolder.id}`, { parent_folder_id: aliceFolder.id });
    expect(intoForeign.status).toBe(404);
    expect(intoForeign.body).toEqual({ detail: "Parent folder not found" });
    expect((await bob.patch(`/api/folders/${bobFolder.id}`, { parent_folder_id: missing })).body).toEqual(intoForeign.body);
    expect((await alice.get("/api/folders")).body.find((f: Folder) => f.id === aliceFolder.id).name).toBe(aliceFolder.name);
  });

  it("refuses a bad body with 422 and a detail", async () => {
    const folder = await createFolder(alice, `Bad ${randomUUID().slice(0, 6)}`);
    const cases: [unknown, string][] = [
      [{}, "Nothing to change: give a name, a color or a parent_folder_id"],
      [{ name: "" }, "Folder name is required"],
      [{ name: "x".repeat(101) }, "Folder name must be at most 100 characters"],
      [{ color: "#000000" }, "Color must be one of #3B82F6, #EF4444, #10B981, #F59E0B, #8B5CF6, #EC4899"],
      [{ parent_folder_id: "nope" }, "Not found"],
    ];
    for (const [body, detail] of cases) {
      const res = await alice.patch(`/api/folders/${folder.id}`, body);
      expect({ body, status: res.status, detail: res.body.detail }).toEqual({ body, status: 422, detail });
    }
  });

  it("never lets two moves at the same moment make a cycle", async () => {
    for (let round = 0; round < 10; round++) {
      const a = await createFolder(alice, `Cycle A ${randomUUID().slice(0, 8)}`);
      const b = await createFolder(alice, `Cycle B ${randomUUID().slice(0, 8)}`);
      const [aIntoB, bIntoA] = await Promise.all([
        alice.patch(`/api/folders/${a.id}`, { parent_folder_id: b.id }),
        alice.patch(`/api/folders/${b.id}`, { parent_folder_id: a.id }),
      ]);
      expect([aIntoB.status, bIntoA.status].sort()).toEqual([200, 422]);
      const rows = await server.db.selectFrom("folders").select(["id", "parent_folder_id"]).where("id", "in", [a.id, b.id]).execute();
      const parents = new Map(rows.map((r) => [r.id, r.parent_folder_id]));
      expect(parents.get(a.id) === b.id && parents.get(b.id) === a.id).toBe(false);
    }
  });
});

describe("ownership of search over tRPC", () => {
  it("never answers another client's document", async () => {
    const doc = await upload(alice, `trpc-only-${randomUUID()}.txt`);
    const res = await trpc(bob, "documents.search", "query", { q: doc.original_filename });
    expect(res.data).toEqual([]);
    expect(aliceUser.id).toBeTruthy();
  });
});

describe("content search (issue 34)", () => {
  let client: ApiClient;
  let clientUser: UserFixture;
  let admin: ApiClient;

  beforeAll(async () => {
    clientUser = await createUser(server.db);
    client = await loginClient(server.url, clientUser);
    admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  });

  async function uploadBytes(caller: ApiClient, bytes: Uint8Array<ArrayBuffer> | string, name: string, type: string): Promise<Document> {
    const form = new FormData();
    form.append("file", new Blob([bytes], { type }), name);
    const res = await caller.request("POST", "/api/documents/upload", { body: form });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function share(text: string, name: string): Promise<Document> {
    const form = new FormData();
    form.append("file", new Blob([text], { type: "text/plain" }), name);
    const res = await admin.request("POST", `/api/admin/users/${clientUser.id}/documents`, { body: form });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  const search = async (query: string) => {
    const res = await client.get(`/api/documents/search?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as (Found & { matched_in: string | null; from_firm: boolean })[];
  };

  /** Until the document's text job has run (done or skipped). */
  const textTried = (id: string) =>
    vi.waitFor(
      async () => {
        const row = await server.db.selectFrom("documents").select(["text_extracted_at"]).where("id", "=", id).executeTakeFirstOrThrow();
        expect(row.text_extracted_at).not.toBeNull();
      },
      { timeout: 30_000, interval: 200 },
    );

  it("finds a scanned PDF by a phrase inside it within 30 s of its upload, saying the match is in the content", async () => {
    const pdf = await readFile(new URL("../fixtures/form-1040.pdf", import.meta.url));
    const started = Date.now();
    const scan = await uploadBytes(client, new Uint8Array(pdf), "scan-0017.pdf", "application/pdf");
    expect(scan.content_type).toBe("application/pdf");
    const found = await vi.waitFor(
      async () => {
        const results = await search("q=income%20tax%20return");
        expect(results.map((d) => d.id)).toContain(scan.id);
        return results.find((d) => d.id === scan.id)!;
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(found).toEqual({ ...scan, folder_path: [], matched_in: "content" });
    // Words in any order and form (stemming), and the name still found as part of it.
    expect((await search("q=returns%20individual")).map((d) => d.id)).toContain(scan.id);
    expect((await search("q=scan-0017")).map((d) => [d.id, d.matched_in])).toEqual([[scan.id, "name"]]);
    // Nobody else finds it by what is in it; the text itself is in no answer and no log line.
    expect(ids(await bob.get("/api/documents/search?q=income%20tax%20return"))).not.toContain(scan.id);
    expect(JSON.stringify(found)).not.toContain("Individual");
    expect(server.logs.join("")).not.toContain("Individual Income");
  });

  it("puts a match in the name above one in the content when sorted by relevance", async () => {
    const named = await uploadBytes(client, "nothing to see", "income tax return checklist.txt", "text/plain");
    await textTried(named.id);
    const ranked = await search("q=income%20tax%20return&sort=relevance");
    expect(ranked.length).toBeGreaterThanOrEqual(2);
    expect([ranked[0]!.id, ranked[0]!.matched_in]).toEqual([named.id, "name"]);
    expect(ranked.slice(1).every((d) => d.matched_in === "content")).toBe(true);
  });

  it("stores a malformed PDF as uploaded, finds it by name, and its text job completes without text", async () => {
    const broken = new Uint8Array([...new TextEncoder().encode("%PDF-1.7\n"), ...randomBytes(2000)]);
    const doc = await uploadBytes(client, broken, "damaged-scan.pdf", "application/pdf");
    expect(doc.content_type).toBe("application/pdf");
    await textTried(doc.id);
    const row = await server.db.selectFrom("documents").select(["content_vector", "deleted_at"]).where("id", "=", doc.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ content_vector: null, deleted_at: null });
    expect((await search("q=damaged")).map((d) => [d.id, d.matched_in])).toEqual([[doc.id, "name"]]);
    const { rows } = await sql<{
      state: string;
    }>`select state from pgboss.job where name = 'document-text' and data->>'documentId' = ${doc.id}`.execute(server.db);
    expect(rows.map((r) => r.state)).toEqual(["completed"]);
  });

  it("backfills documents from before content search, from the rows still to do", async () => {
    const owner = await createUser(server.db);
    const caller = await loginClient(server.url, owner);
    const pdf = new Uint8Array(await readFile(new URL("../fixtures/form-1040.pdf", import.meta.url)));
    const older = [
      await uploadBytes(caller, pdf, "old-scan-1.pdf", "application/pdf"),
      await uploadBytes(caller, "A 1099-INT statement", "interest.txt", "text/plain"),
    ];
    await Promise.all(older.map((d) => textTried(d.id)));
    // As the migration leaves the documents stored before it: no text, not yet tried.
    const ids = older.map((d) => d.id);
    await server.db.updateTable("documents").set({ text_extracted_at: null, content_vector: null }).where("id", "in", ids).execute();
    const found = async (q: string) => ((await caller.get(`/api/documents/search?q=${encodeURIComponent(q)}`)).body as Found[]).map((d) => d.id);
    expect(await found("individual income")).toEqual([]);

    await server.deps.jobs.send("document-text-backfill", {});
    await vi.waitFor(async () => expect(await found("individual income")).toEqual([older[0]!.id]), { timeout: 30_000, interval: 250 });
    await vi.waitFor(async () => expect(await found("1099-INT")).toEqual([older[1]!.id]), { timeout: 30_000, interval: 250 });
    const pending = await server.db.selectFrom("documents").select("id").where("id", "in", ids).where("text_extracted_at", "is", null).execute();
    expect(pending).toEqual([]);
  });

  it("filters what the firm shared from what the client uploaded, and by year, with or without search text", async () => {
    const shared = await share("Engagement letter: we prepare your income tax return", "Engagement letter.txt");
    const own = await uploadBytes(client, "Receipts for the income tax return", "receipts.txt", "text/plain");
    await Promise.all([textTried(shared.id), textTried(own.id)]);
    const old = await uploadBytes(client, "older", "2023 organizer.txt", "text/plain");
    await server.db
      .updateTable("documents")
      .set({ upload_date: new Date("2023-04-10T12:00:00Z") })
      .where("id", "=", old.id)
      .execute();

    const fromFirm = await search("source=firm");
    expect(fromFirm.map((d) => [d.id, d.from_firm, d.matched_in])).toEqual([[shared.id, true, null]]);
    const fromClient = (await search("source=client")).map((d) => d.id);
    expect(fromClient).toEqual(expect.arrayContaining([own.id, old.id]));
    expect(fromClient).not.toContain(shared.id);

    expect(ids(await client.get("/api/documents/search?q=income%20tax%20return&source=firm"))).toEqual([shared.id]);
    const clientMatches = ids(await client.get("/api/documents/search?q=income%20tax%20return&source=client"));
    expect(clientMatches).toContain(own.id);
    expect(clientMatches).not.toContain(shared.id);

    expect(ids(await client.get("/api/documents/search?year=2023"))).toEqual([old.id]);
    expect(ids(await client.get("/api/documents/search?year=2023&q=organizer&source=client"))).toEqual([old.id]);
    expect(ids(await client.get("/api/documents/search?year=2023&source=firm"))).toEqual([]);
    const thisYear = ids(await client.get(`/api/documents/search?year=${new Date().getUTCFullYear()}`));
    expect(thisYear).toEqual(expect.arrayContaining([shared.id, own.id]));
    expect(thisYear).not.toContain(old.id);
  });
});

/** The tables an EXPLAIN (FORMAT JSON) plan reads by a sequential scan. */
function seqScansOf(plan: unknown): string[] {
  if (Array.isArray(plan)) return plan.flatMap(seqScansOf);
  if (plan === null || typeof plan !== "object") return [];
  const node = plan as Record<string, unknown>;
  const own = node["Node Type"] === "Seq Scan" ? [String(node["Relation Name"])] : [];
  return [...own, ...Object.values(node).flatMap(seqScansOf)];
}
