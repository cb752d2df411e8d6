// Encryption at rest's cost (issue 37), in the same run: (1) the same 10 MB files stored and read
// back through the plain storage and through the encrypting one over it, on the local disk and on
// S3 (s3rver on loopback), in this process; (2) over HTTP, downloads from the running app of
// encrypted documents against documents stored as before encryption (plaintext objects without a
// key row, which the app still serves as they are), with the app's peak memory per download.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { EncryptedStorage } from "../../server/storage/encrypted-storage.ts";
import { LocalDirectoryStorage } from "../../server/storage/local-directory-storage.ts";
import { masterKey } from "../../server/storage/object-encryption.ts";
import { S3Storage } from "../../server/storage/s3-storage.ts";
import type { ObjectStorage } from "../../server/storage/storage.ts";
import { hashPassword } from "../../server/auth/password.ts";
import { insertUser } from "../../server/domains/auth/queries.ts";
import { giveOwnAccount } from "./database.ts";
import { type ChildServer, peakRssDuring } from "./processes.ts";
import type { TestS3 } from "../../test/helpers/s3.ts";
import type { Row } from "./report.ts";

const FILE_BYTES = 10_000_000;
const CONCURRENCY = 8;

async function throughput(files: number, work: (i: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < files) await work(next++);
    }),
  );
  return (files * FILE_BYTES) / 1e6 / ((performance.now() - started) / 1000);
}

/** MB/s storing and reading back `files` files through `storage`, best of `rounds`. */
async function measure(storage: ObjectStorage, content: Buffer, files: number, tag: string, rounds: number): Promise<{ put: number; get: number }> {
  let put = 0;
  let get = 0;
  for (let round = 0; round < rounds; round++) {
    const keys = Array.from({ length: files }, (_, i) => `bench-${tag}-${round}-${i}-${randomBytes(6).toString("hex")}`);
    // 64 KiB pieces, as an upload arrives.
    const pieces = function* () {
      for (let at = 0; at < content.length; at += 65536) yield content.subarray(at, at + 65536);
    };
    put = Math.max(put, await throughput(files, (i) => storage.put(keys[i]!, Readable.from(pieces()))));
    get = Math.max(
      get,
      await throughput(files, async (i) => {
        let bytes = 0;
        for await (const part of await storage.get(keys[i]!)) bytes += (part as Buffer).length;
        if (bytes !== FILE_BYTES) throw new Error(`read ${bytes} bytes of ${FILE_BYTES}`);
      }),
    );
    for (const key of keys) await storage.delete(key);
  }
  return { put, get };
}

export async function benchEncryption(opts: {
  databaseUrl: string;
  work: string;
  files: number;
  /** Rounds of each measurement, the best one kept (one in the smoke run). */
  rounds: number;
  s3: TestS3;
  /** The running app on local disk, and its DATA_DIR. */
  app: ChildServer;
  dataDir: string;
}): Promise<Row[]> {
  const handle = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: "memory://", logger: createLogger("silent") });
  const rows: Row[] = [];
  try {
    const content = randomBytes(FILE_BYTES);
    const keys = { current: masterKey(randomBytes(32)), previous: [] };
    const backends: [string, ObjectStorage][] = [
      ["local disk", new LocalDirectoryStorage(path.join(opts.work, "encryption-bench"))],
      ["S3", new S3Storage(opts.s3.client, opts.s3.bucket)],
    ];
    for (const [name, backend] of backends) {
      const plain = await measure(backend, content, opts.files, "plain", opts.rounds);
      const sealed = await measure(new EncryptedStorage(backend, handle.db, keys), content, opts.files, "sealed", opts.rounds);
      for (const [what, measured, baseline] of [
        ["store", sealed.put, plain.put],
        ["read", sealed.get, plain.get],
      ] as const) {
        const ratio = measured / baseline;
        rows.push({
          benchmark: `Encryption at rest, ${name}: ${what} 10 MB, ${CONCURRENCY} at a time`,
          measured: `${measured.toFixed(0)} MB/s`,
          baseline: `${baseline.toFixed(0)} MB/s (unencrypted)`,
          ratio: `${ratio.toFixed(2)}x`,
          target: ">= 0.8x",
          result: ratio >= 0.8 ? "ok" : "MISS",
        });
      }
    }
    rows.push(...(await benchHttpDownloads(handle.db, opts, content)));
  } finally {
    await handle.close();
  }
  return rows;
}

/** GETs of every document at once, CONCURRENCY at a time, each read to its end: MB/s. */
async function downloads(url: string, cookie: string, ids: string[]): Promise<number> {
  return throughput(ids.length, async (i) => {
    const res = await fetch(`${url}/api/documents/${ids[i]}/download`, { headers: { cookie } });
    if (!res.ok || !res.body) throw new Error(`download answered ${res.status}`);
    let bytes = 0;
    for await (const part of res.body) bytes += part.length;
    if (bytes !== FILE_BYTES) throw new Error(`download gave ${bytes} bytes of ${FILE_BYTES}`);
  });
}

async function benchHttpDownloads(
  db: Parameters<typeof giveOwnAccount>[0],
  opts: { app: ChildServer; dataDir: string; files: number; rounds: number },
  content: Buffer,
): Promise<Row[]> {
  const password = `Bench-${randomBytes(12).toString("hex")}`;
  await giveOwnAccount(
    db,
    await insertUser(db, {
      username: "bench-encryption",
      email: "bench-encryption@example.com",
      name: "Bench",
      password_hash: await hashPassword(password),
      is_admin: false,
    }),
  );
  const url = opts.app.url;
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/json" },
    body: JSON.stringify({ username: "bench-encryption", password, return_token: true }),
  });
  const cookie = `session=${((await login.json()) as { session_token: string }).session_token}`;
  const upload = async (name: string): Promise<string> => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(content)]), name);
    const res = await fetch(`${url}/api/documents/upload`, { method: "POST", headers: { origin: url, cookie }, body: form });
    if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  const sealedIds: string[] = [];
  const plainIds: string[] = [];
  for (let i = 0; i < opts.files; i++) sealedIds.push(await upload(`sealed-${i}.bin`));
  for (let i = 0; i < opts.files; i++) plainIds.push(await upload(`plain-${i}.bin`));
  // The second set as it would be had it been stored before encryption: plaintext, no key row.
  for (const id of plainIds) {
    const { storage_key: key } = await db.selectFrom("documents").select("storage_key").where("id", "=", id).executeTakeFirstOrThrow();
    fs.writeFileSync(path.join(opts.dataDir, "documents", key.slice(0, 2), key), content);
    await db.deleteFrom("stored_object_keys").where("storage_key", "=", key).execute();
  }
  await downloads(url, cookie, [sealedIds[0]!, plainIds[0]!]);
  let sealed = 0;
  let plain = 0;
  let peakPerDownload = 0;
  for (let round = 0; round < opts.rounds; round++) {
    plain = Math.max(plain, await downloads(url, cookie, plainIds));
    const run = await peakRssDuring(opts.app.pid, () => downloads(url, cookie, sealedIds));
    sealed = Math.max(sealed, run.result);
    peakPerDownload = Math.max(peakPerDownload, (run.peak - run.idle) / Math.min(CONCURRENCY, opts.files) / (1024 * 1024));
  }
  const ratio = sealed / plain;
  return [
    {
      benchmark: `Encryption at rest, HTTP download 10 MB, ${CONCURRENCY} at a time`,
      measured: `${sealed.toFixed(0)} MB/s`,
      baseline: `${plain.toFixed(0)} MB/s (plaintext objects from before)`,
      ratio: `${ratio.toFixed(2)}x`,
      target: ">= 0.8x",
      result: ratio >= 0.8 ? "ok" : "MISS",
    },
    {
      benchmark: "Encryption at rest, HTTP download: peak RSS growth per concurrent download",
      measured: `${peakPerDownload.toFixed(1)} MB`,
      baseline: "",
      ratio: "",
      target: "< 16 MB",
      result: peakPerDownload < 16 ? "ok" : "MISS",
    },
  ];
}
