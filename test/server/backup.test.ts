// Backup and restore (issue 37; docs/safeguards.md, "Backup and restore"), as a round trip on whichever database
// the run uses (DATABASE_URL: Postgres; unset: the embedded one, backed up through the running app's
// socket): users, a session, messages, documents uploaded through the app and the trail; the
// backup taken while the app serves a request; a fresh empty database and storage; restore; the
// app started on it. Every row from before the backup is back as it was (each column's text), every
// document downloads with its bytes, the session still signs in, and the app goes on writing. A
// flipped byte or a cut end is refused with nothing left behind; a database with data is refused.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { cp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { backupToFile, restoreFromFile } from "../../server/backup/run.ts";
import { dumpFirm, type EndRecord, listTables } from "../../server/backup/dump.ts";
import { type Config, loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/database.ts";
import type { Database } from "../../server/db/types.ts";
import { createLogger } from "../../server/logger.ts";
import { createBackendStorage } from "../../server/storage/create-storage.ts";
import type { ObjectStorage } from "../../server/storage/storage.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";
import { startTestServer, TEST_DOCUMENT_ENCRYPTION_KEY, type TestServer } from "../helpers/server.ts";

const quiet = createLogger("silent");
const BACKUP_KEY = Buffer.alloc(32, 9).toString("base64");
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

const files: string[] = [];
function scratch(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  files.push(dir);
  return dir;
}
afterAll(() => {
  for (const file of files) fs.rmSync(file, { recursive: true, force: true });
});

function configOf(dataDir: string, databaseUrl: string | undefined, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DOCUMENT_ENCRYPTION_KEY: TEST_DOCUMENT_ENCRYPTION_KEY,
    BACKUP_ENCRYPTION_KEY: BACKUP_KEY,
    ...env,
  });
}

/** An empty place to restore into: a freshly migrated database (as the test helpers make one) and an empty data folder. */
type Target = { dataDir: string; config: Config; open: () => Promise<TestDatabase>; close: () => Promise<void> };

async function emptyTarget(env: Record<string, string> = {}): Promise<Target> {
  const dataDir = scratch("portal-restore-");
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    const close = once(database.close);
    return { dataDir, config: configOf(dataDir, database.url, env), open: async () => ({ ...database, close }), close };
  }
  // The embedded database of DATA_DIR is DATA_DIR/pgdata: the migrated template's copy goes there.
  await cp(inject("embeddedTemplate"), dataDir, { recursive: true });
  let close: () => Promise<void> = async () => undefined;
  return {
    dataDir,
    config: configOf(dataDir, undefined, env),
    open: async () => {
      const handle = await openDatabase({ dataDir, logger: quiet });
      close = once(handle.close);
      return { ...handle, close: () => close(), url: undefined, name: "embedded" };
    },
    close: () => close(),
  };
}

async function storedKeys(config: Config): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of createBackendStorage(config).list()) keys.push(object.key);
  return keys;
}

/** A server closes its database, and a test's cleanup may close it again: only the first does. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** Every row of every table as its columns' text, by table: what a round trip must give back exactly. */
async function snapshot(db: Kysely<Database>): Promise<Map<string, Set<string>>> {
  const tables = await listTables(db);
  const out = new Map<string, Set<string>>();
  await db.transaction().execute(async (trx) => {
    await sql`set local timezone = 'UTC'`.execute(trx);
    for (const table of tables) {
      const values = table.columns.map((c) => `"${c.name}"::text`).join(", ");
      const { rows } = await sql.raw<{ line: string }>(`select to_json(array[${values}])::text as line from "${table.name}"`).execute(trx);
      out.set(table.name, new Set(rows.map((r) => r.line)));
    }
  });
  return out;
}

/** The first column's values (the id, in every table that has one) of a snapshot's table. */
function idsOf(snap: Map<string, Set<string>>, table: string): Set<string> {
  return new Set([...snap.get(table)!].map((row) => (JSON.parse(row) as (string | null)[])[0]!));
}

type Uploaded = { id: string; bytes: Buffer };

async function upload(api: ApiClient, bytes: Buffer, filename: string, type = "application/octet-stream"): Promise<Uploaded> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await api.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return { id: (res.body as { id: string }).id, bytes };
}

async function download(server: TestServer, api: ApiClient, id: string): Promise<{ status: number; bytes: Buffer }> {
  const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${server.url}/api/documents/${id}/download`, { headers: { Cookie: cookie } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The same signed-in browser, pointed at another server: its cookies are all a session is. */
function sameSessionAt(api: ApiClient, url: string): ApiClient {
  const moved = new ApiClient(url);
  for (const [k, v] of api.cookies) moved.cookies.set(k, v);
  return moved;
}

const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from("Form 1040 SSN 078-05-1120 ".repeat(50)), Buffer.from("\n%%EOF\n")]);

describe("backup and restore", () => {
  let source: TestServer;
  let admin: UserFixture;
  let adminApi: ApiClient;
  let alice: UserFixture;
  let aliceApi: ApiClient;
  const documents: Uploaded[] = [];
  let archive: string;
  let before: Map<string, Set<string>>;
  let after: Map<string, Set<string>>;
  let lateUpload: Uploaded;

  beforeAll(async () => {
    source = await startTestServer({ env: { BACKUP_ENCRYPTION_KEY: BACKUP_KEY } });
    admin = await createUser(source.db, { is_admin: true, name: "Morgan Firm" });
    adminApi = await loginClient(source.url, admin, "admin");
    alice = await createUser(source.db, { name: "Alice Zoë Ñúñez" });
    await source.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", alice.id).execute();
    aliceApi = await loginClient(source.url, alice);
    // Chunks of the stored format (64 KiB) and of the archive's (1 MiB), a PDF, a name outside ASCII.
    documents.push(await upload(aliceApi, randomBytes(1_500_000), "scan.bin"));
    documents.push(await upload(aliceApi, PDF, "2026 Form 1040.pdf", "application/pdf"));
    documents.push(await upload(aliceApi, Buffer.from("Reçu – 2026 ✓\n"), "Reçu ✓.txt", "text/plain"));
    const sent = await aliceApi.post("/api/messages", { text: "Hello,\nhere is my W-2 — thanks 👋", document_ids: [documents[1]!.id] });
    expect(sent.status, sent.text).toBe(201);
    const reply = await adminApi.post(`/api/admin/messages/${alice.id}`, { text: "Got it." });
    expect(reply.status, reply.text).toBe(201);
    before = await snapshot(source.db);

    archive = path.join(scratch("portal-archive-"), "firm.backup");
    // The backup runs while the app serves: an upload and a read start during it and are answered.
    const backup = backupToFile(configOf(source.dataDir, source.database.url), archive, quiet);
    const during = Promise.all([upload(aliceApi, randomBytes(70_000), "during.bin"), aliceApi.get("/api/messages")]);
    const [summary, [late, list]] = await Promise.all([backup, during]);
    lateUpload = late;
    expect(list.status).toBe(200);
    expect(summary.objects).toBeGreaterThanOrEqual(3);
    expect(summary.missing_objects).toEqual([]);
    after = await snapshot(source.db);
  });
  afterAll(async () => {
    await source?.close();
  });

  it("writes an archive that shows none of the data", () => {
    const bytes = fs.readFileSync(archive);
    expect(bytes.subarray(0, 14).toString()).toBe("PORTAL-BACKUP\n");
    for (const plain of [
      alice.username!,
      "Morgan Firm",
      "2026 Form 1040.pdf",
      "Hello,",
      "%PDF",
      "078-05-1120",
      "documents",
      "insert",
      "activity_events",
    ])
      expect(bytes.includes(Buffer.from(plain)), plain).toBe(false);
    expect(bytes.includes(documents[0]!.bytes.subarray(1000, 1032))).toBe(false);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
  });

  it("fails, writing no archive, when run with another DATA_DIR than the app's", async () => {
    const out = path.join(scratch("portal-archive-"), "elsewhere.backup");
    await expect(backupToFile(configOf(scratch("portal-elsewhere-"), source.database.url), out, quiet)).rejects.toThrow(
      source.database.url ? /is not in the storage: run the backup with the app's DATA_DIR/ : /No embedded database under/,
    );
    expect(fs.readdirSync(path.dirname(out))).toEqual([]);
  });

  it("records a document deleted between the snapshot and its copy, and goes on", async () => {
    const victim = await upload(aliceApi, Buffer.from("deleted during the backup"), "gone.txt", "text/plain");
    const { storage_key } = await source.db.selectFrom("documents").select("storage_key").where("id", "=", victim.id).executeTakeFirstOrThrow();
    const backend = createBackendStorage(source.deps.config);
    // The app deletes the row, then the object, after the snapshot was taken and before the copy reaches it.
    const racing: ObjectStorage = {
      list: () => backend.list(),
      check: () => backend.check(),
      put: (key, body) => backend.put(key, body),
      delete: (key) => backend.delete(key),
      get: async (key, range) => {
        if (key === storage_key) {
          await source.db.deleteFrom("documents").where("id", "=", victim.id).execute();
          await backend.delete(key);
        }
        return backend.get(key, range);
      },
    };
    let summary: EndRecord | undefined;
    for await (const _ of dumpFirm(source.db, racing, { database: source.database.kind, onSummary: (s) => (summary = s) }));
    expect(summary!.missing_objects).toEqual([storage_key]);
    expect(summary!.objects).toBeGreaterThanOrEqual(documents.length);
  });

  it("refuses a flipped byte or a cut end, and leaves the database and storage empty", async () => {
    const target = await emptyTarget();
    try {
      const good = fs.readFileSync(archive);
      const tampered = Buffer.from(good);
      // Near the end: inside the documents, after the rows went in, so the rollback is what is tested.
      tampered.writeUInt8(tampered.at(-200)! ^ 0x01, tampered.length - 200);
      const tamperedFile = path.join(scratch("portal-tampered-"), "t.backup");
      fs.writeFileSync(tamperedFile, tampered);
      await expect(restoreFromFile(target.config, tamperedFile, quiet)).rejects.toThrow(/altered or truncated/);
      const cutFile = path.join(scratch("portal-cut-"), "c.backup");
      fs.writeFileSync(cutFile, good.subarray(0, good.length - 5000));
      await expect(restoreFromFile(target.config, cutFile, quiet)).rejects.toThrow(/altered or truncated/);
      const headerFile = path.join(scratch("portal-header-"), "h.backup");
      const header = Buffer.from(good);
      header.writeUInt8(header[40]! ^ 0x01, 40);
      fs.writeFileSync(headerFile, header);
      await expect(restoreFromFile(target.config, headerFile, quiet)).rejects.toThrow(/backup archive/);
      await expect(restoreFromFile({ ...target.config, backupEncryptionKey: randomBytes(32) }, archive, quiet)).rejects.toThrow(
        /another BACKUP_ENCRYPTION_KEY/,
      );

      expect(await storedKeys(target.config)).toEqual([]);
      const database = await target.open();
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from users`.execute(database.db);
      expect(rows[0]!.n).toBe(0);
      // And it stays restorable.
      if (!target.config.databaseUrl) await database.close();
    } finally {
      await target.close();
    }
  });

  it("refuses a database that already has data", async () => {
    const target = await emptyTarget();
    try {
      const database = await target.open();
      await createUser(database.db);
      // The embedded database allows one process: the restore opens it itself.
      if (!target.config.databaseUrl) await database.close();
      await expect(restoreFromFile(target.config, archive, quiet)).rejects.toThrow(/already has data \(in .*users/);
      expect(await storedKeys(target.config)).toEqual([]);
    } finally {
      await target.close();
    }
    // On the embedded database, the running app's own DATA_DIR is refused before anything is opened.
    if (!source.database.url) {
      const logged = source.logs.length;
      await expect(restoreFromFile(configOf(source.dataDir, undefined), archive, quiet)).rejects.toThrow(/The app is running/);
      // Looking whether the app runs asks it for nothing.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(source.logs.slice(logged).join("")).not.toMatch(/backup/);
    }
  });

  it("brings everything back into an empty database and storage: rows, documents, sessions, messages, trail", async () => {
    const target = await emptyTarget();
    const summary = await restoreFromFile(target.config, archive, quiet);
    expect(summary.objects).toBeGreaterThanOrEqual(3);
    const restored = await startTestServer({ database: await target.open(), dataDir: target.dataDir, env: { BACKUP_ENCRYPTION_KEY: BACKUP_KEY } });
    try {
      const now = await snapshot(restored.db);
      // Every row from before the backup is back, column for column; nothing is there that the
      // source never had. Tables the app rewrites as it serves (a session's last use) are compared
      // by what did not change meanwhile.
      const strict: string[] = [];
      for (const [table, rows] of before) {
        const later = after.get(table)!;
        const unchanged = [...rows].filter((row) => later.has(row));
        if (unchanged.length === rows.size) strict.push(table);
        for (const row of unchanged) expect(now.get(table)!.has(row), `${table}: ${row}`).toBe(true);
        if (table !== "row_counts" && table !== "sessions" && table !== "rate_limits")
          for (const row of now.get(table)!) expect(later.has(row) || rows.has(row), `${table} has a row the source never had: ${row}`).toBe(true);
      }
      // The trail and the document keys never change once written: all of them are back as they were.
      expect(strict).toEqual(expect.arrayContaining(["activity_events", "stored_object_keys"]));
      // Rows the app changed meanwhile (a document's extracted text, a message read) are back by
      // id: none is lost unless the source deleted it meanwhile.
      for (const table of before.keys()) {
        const idsAfter = idsOf(after, table);
        for (const id of idsOf(before, table)) if (idsAfter.has(id)) expect(idsOf(now, table).has(id), `${table} ${id}`).toBe(true);
      }
      expect(before.get("activity_events")!.size).toBeGreaterThan(3);

      // The session goes on: the same cookies sign in on the restored app.
      const aliceAgain = sameSessionAt(aliceApi, restored.url);
      const me = await aliceAgain.get("/api/auth/me");
      expect(me.status, me.text).toBe(200);
      expect(me.body.username).toBe(alice.username);
      const adminAgain = sameSessionAt(adminApi, restored.url);
      expect((await adminAgain.get(`/api/admin/messages/${alice.id}`)).status).toBe(200);

      // Every document downloads with its original bytes; the one uploaded during the backup is
      // either wholly there or not at all.
      for (const doc of documents) {
        const got = await download(restored, aliceAgain, doc.id);
        expect(got.status).toBe(200);
        expect(sha256(got.bytes)).toBe(sha256(doc.bytes));
      }
      const late = await download(restored, aliceAgain, lateUpload.id);
      if (late.status === 200) expect(sha256(late.bytes)).toBe(sha256(lateUpload.bytes));
      else expect(late.status).toBe(404);

      const messages = await aliceAgain.get("/api/messages");
      expect(messages.body.map((m: { text: string }) => m.text)).toEqual(["Hello,\nhere is my W-2 — thanks 👋", "Got it."]);

      // Sequences and identities went on from where they were: new messages, uploads and trail entries are accepted.
      expect((await aliceAgain.post("/api/messages", { text: "after the restore" })).status).toBe(201);
      const fresh = await upload(aliceAgain, Buffer.from("new after restore"), "new.txt", "text/plain");
      expect((await download(restored, aliceAgain, fresh.id)).bytes.toString()).toBe("new after restore");
      const counts = await restored.db.selectFrom("row_counts").selectAll().execute();
      const documentRows = await restored.db
        .selectFrom("documents")
        .select(sql<number>`count(*)::int`.as("n"))
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(counts)).toContain("documents");
      expect(counts.find((c) => c.table_name === "documents")?.row_count).toBe(documentRows.n);

      // A second restore into the same place is refused (on the embedded database: the app runs there).
      await expect(restoreFromFile(target.config, archive, quiet)).rejects.toThrow(/already has data|The app is running/);
    } finally {
      await restored.close();
      await target.close();
    }
  });
});

describe("backup and restore with S3 storage", () => {
  let s3: TestS3;
  let s3Target: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
    s3Target = await startTestS3();
  });
  afterAll(async () => {
    await s3?.close();
    await s3Target?.close();
  });

  it("copies the bucket's objects as stored and puts them into an empty bucket", async () => {
    const source = await startTestServer({ env: { ...s3.env, BACKUP_ENCRYPTION_KEY: BACKUP_KEY } });
    let restored: TestServer | undefined;
    const target = await emptyTarget(s3Target.env);
    try {
      const user = await createUser(source.db);
      const api = await loginClient(source.url, user);
      const doc = await upload(api, randomBytes(150_000), "bucket.bin");
      const archive = path.join(scratch("portal-archive-"), "s3.backup");
      const summary = await backupToFile(configOf(source.dataDir, source.database.url, s3.env), archive, quiet);
      expect(summary.objects).toBe(1);
      // A bucket that holds anything is refused before any row goes in.
      await expect(restoreFromFile(configOf(target.dataDir, target.config.databaseUrl, s3.env), archive, quiet)).rejects.toThrow(
        /storage already holds objects/,
      );
      await restoreFromFile(target.config, archive, quiet);
      restored = await startTestServer({ database: await target.open(), dataDir: target.dataDir, env: s3Target.env });
      const got = await download(restored, sameSessionAt(api, restored.url), doc.id);
      expect(got.status).toBe(200);
      expect(sha256(got.bytes)).toBe(sha256(doc.bytes));
      expect(s3Target.requests.some((r) => r.startsWith("PUT "))).toBe(true);
    } finally {
      await restored?.close();
      await source.close();
      await target.close();
    }
  });
});
