// Encryption at rest's cost (issue 37), in the same run, as the issue measures it: uploads and
// downloads of 10 MB documents through the running app, 8 at a time, on the local disk and on S3
// (s3rver on loopback), against the same app storing documents as before encryption
// (BENCH_UNENCRYPTED_STORAGE, scripts/bench/app-server.ts), with the app's peak memory per transfer
// and, as information, its CPU per MB (every thread, from /proc).
// Each app has a database and a disk or bucket of its own (their jobs never see each other's
// objects); the two of a storage are measured round by round in turn, the best round of each kept.
//
// Then, as information, the storage layer alone in this process (no HTTP): the encrypting storage
// against the one under it. Its local read is a read from the page cache, which costs the plain
// path almost no CPU; those rows show the cipher's own cost, not what a client waits for.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { hashPassword } from "../../server/auth/password.ts";
import { openDatabase } from "../../server/db/database.ts";
import { insertUser } from "../../server/domains/auth/queries.ts";
import { createLogger } from "../../server/logger.ts";
import { EncryptedStorage } from "../../server/storage/encrypted-storage.ts";
import { LocalDirectoryStorage } from "../../server/storage/local-directory-storage.ts";
import { masterKey } from "../../server/storage/object-encryption.ts";
import { S3Storage } from "../../server/storage/s3-storage.ts";
import type { ObjectStorage } from "../../server/storage/storage.ts";
import { startTestS3, type TestS3 } from "../../test/helpers/s3.ts";
import { createBenchDatabase, giveOwnAccount } from "./database.ts";
import { freePort, login, multipartBody } from "./http.ts";
import { type ChildServer, cpuMs, peakRssDuring, startChild } from "./processes.ts";
import type { Row } from "./report.ts";

const FILE_BYTES = 10_000_000;
const CONCURRENCY = 8;
const MB = 1024 * 1024;

type StorageName = "local disk" | "S3";

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

export async function benchEncryption(opts: {
  /** The Postgres server the bench's databases are made on. */
  base: string;
  work: string;
  files: number;
  /** Rounds of each measurement, the best one kept (one in the smoke run). */
  rounds: number;
  /** The environment every app of the run shares (NODE_ENV, the master key, the client build). */
  appEnv: Record<string, string>;
  cleanup: (() => Promise<void>)[];
}): Promise<Row[]> {
  const content = randomBytes(FILE_BYTES);
  const rows: Row[] = [];
  for (const storage of ["local disk", "S3"] as const) {
    const sealed = await startApp(opts, storage, true);
    const plain = await startApp(opts, storage, false);
    try {
      // Warmed up first: an app's first uploads load code and grow its heap, which is not per transfer.
      if (opts.rounds > 1) for (const app of [plain, sealed]) await transfers(app, CONCURRENCY, content);
      const fresh = () => ({ up: 0, down: 0, upRss: 0, downRss: 0, upCpu: [] as number[], downCpu: [] as number[] });
      const best = { sealed: fresh(), plain: fresh() };
      for (let round = 0; round < opts.rounds; round++) {
        for (const [which, app] of [
          ["plain", plain],
          ["sealed", sealed],
        ] as const) {
          const measured = await transfers(app, opts.files, content);
          const b = best[which];
          b.up = Math.max(b.up, measured.up);
          b.down = Math.max(b.down, measured.down);
          b.upRss = Math.max(b.upRss, measured.upRss);
          b.downRss = Math.max(b.downRss, measured.downRss);
          b.upCpu.push(measured.upCpu);
          b.downCpu.push(measured.downCpu);
        }
      }
      for (const [what, measured, baseline] of [
        ["upload", best.sealed.up, best.plain.up],
        ["download", best.sealed.down, best.plain.down],
      ] as const) {
        const ratio = measured / baseline;
        rows.push({
          benchmark: `Encryption at rest, ${storage}: HTTP ${what} 10 MB, ${CONCURRENCY} at a time`,
          measured: `${measured.toFixed(0)} MB/s`,
          baseline: `${baseline.toFixed(0)} MB/s (the app unencrypted)`,
          ratio: `${ratio.toFixed(2)}x`,
          target: ">= 0.8x",
          result: ratio >= 0.8 ? "ok" : "MISS",
        });
      }
      // The app's CPU per MB, all its threads, the median round: steadier than throughput on a loaded
      // machine, and it counts the collector's background work, which a profile of the main thread
      // does not (and which comes in some rounds, not others: hence the median, not the best).
      for (const [what, measured, baseline] of [
        ["uploaded", median(best.sealed.upCpu), median(best.plain.upCpu)],
        ["downloaded", median(best.sealed.downCpu), median(best.plain.downCpu)],
      ] as const) {
        rows.push({
          benchmark: `Encryption at rest, ${storage}: the app's CPU per MB ${what}`,
          measured: `${measured.toFixed(2)} ms`,
          baseline: `${baseline.toFixed(2)} ms (the app unencrypted)`,
          ratio: `${(measured / baseline).toFixed(2)}x`,
          target: "",
          result: "info",
        });
      }
      for (const [what, perTransfer, baseline] of [
        ["upload", best.sealed.upRss, best.plain.upRss],
        ["download", best.sealed.downRss, best.plain.downRss],
      ] as const) {
        rows.push({
          benchmark: `Encryption at rest, ${storage}: peak RSS growth per concurrent ${what}`,
          measured: `${perTransfer.toFixed(1)} MB`,
          baseline: `${baseline.toFixed(1)} MB unencrypted`,
          ratio: "",
          target: "< 16 MB",
          result: perTransfer < 16 ? "ok" : "MISS",
        });
      }
    } finally {
      // Stopped now, not at the run's end: four apps and their pools left running took the bench
      // database server past its connection limit in the sections after this one.
      await Promise.all([sealed.server.stop(), plain.server.stop()]);
    }
  }
  rows.push(...(await storageLayerRows(opts, content)));
  return rows;
}

type App = { server: ChildServer; cookie: string };

/** The middle value (the upper one of an even count). */
function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** A client app of its own: a fresh database with one signed-in client, its own directory or bucket. */
async function startApp(opts: Parameters<typeof benchEncryption>[0], storage: StorageName, encrypted: boolean): Promise<App> {
  const database = await createBenchDatabase(opts.base);
  opts.cleanup.unshift(database.drop);
  const password = `Bench-${randomBytes(12).toString("hex")}`;
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: "memory://", logger: createLogger("silent") });
  try {
    const user = await insertUser(handle.db, {
      username: "bench-encryption",
      email: "bench-encryption@example.com",
      name: "Bench",
      password_hash: await hashPassword(password),
      is_admin: false,
    });
    await giveOwnAccount(handle.db, user);
  } finally {
    await handle.close();
  }
  let s3: TestS3 | null = null;
  if (storage === "S3") {
    s3 = await startTestS3();
    opts.cleanup.unshift(s3.close);
  }
  const name = `encryption-${storage === "S3" ? "s3" : "local"}-${encrypted ? "sealed" : "plain"}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startChild(
    "app-server.ts",
    {
      ...opts.appEnv,
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: database.url,
      DATA_DIR: path.join(opts.work, name),
      ...(s3?.env ?? {}),
      ...(encrypted ? {} : { BENCH_UNENCRYPTED_STORAGE: "1" }),
    },
    path.join(opts.work, `${name}.log`),
  );
  // Also in the run's clean-up, should the section fail before it stops the app itself.
  opts.cleanup.unshift(server.stop);
  return { server, cookie: `session=${await login(url, "/api/auth/login", "bench-encryption", password)}` };
}

/** `files` uploads, then each downloaded, CONCURRENCY at a time: MB/s and peak RSS growth per transfer. */
async function transfers(
  app: App,
  files: number,
  content: Buffer,
): Promise<{ up: number; down: number; upRss: number; downRss: number; upCpu: number; downCpu: number }> {
  const { url, pid } = app.server;
  const { body, contentType } = multipartBody(content);
  const bytes = new Uint8Array(body);
  const ids: string[] = [];
  const megabytes = (files * FILE_BYTES) / 1e6;
  const cpuBeforeUploads = cpuMs(pid);
  const uploads = await peakRssDuring(pid, () =>
    throughput(files, async (i) => {
      const res = await fetch(`${url}/api/documents/upload`, {
        method: "POST",
        headers: { origin: url, cookie: app.cookie, "content-type": contentType },
        body: bytes,
      });
      if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      ids[i] = ((await res.json()) as { id: string }).id;
    }),
  );
  const cpuBeforeDownloads = cpuMs(pid);
  const downloads = await peakRssDuring(pid, () =>
    throughput(files, async (i) => {
      const res = await fetch(`${url}/api/documents/${ids[i]}/download`, { headers: { cookie: app.cookie } });
      if (!res.ok || !res.body) throw new Error(`download answered ${res.status}`);
      let bytes = 0;
      for await (const part of res.body) bytes += part.length;
      if (bytes !== FILE_BYTES) throw new Error(`download gave ${bytes} bytes of ${FILE_BYTES}`);
    }),
  );
  const perTransfer = (run: { idle: number; peak: number }) => (run.peak - run.idle) / Math.min(CONCURRENCY, files) / MB;
  const upCpu = (cpuBeforeDownloads - cpuBeforeUploads) / megabytes;
  const downCpu = (cpuMs(pid) - cpuBeforeDownloads) / megabytes;
  return { up: uploads.result, down: downloads.result, upRss: perTransfer(uploads), downRss: perTransfer(downloads), upCpu, downCpu };
}

/** MB/s storing and reading back `files` files through `storage` in this process, best of `rounds`. */
async function storageLayer(
  storage: ObjectStorage,
  content: Buffer,
  files: number,
  tag: string,
  rounds: number,
): Promise<{ put: number; get: number }> {
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

/** The storage layer alone, encrypting against plain, as information (see the top of this file). */
async function storageLayerRows(opts: Parameters<typeof benchEncryption>[0], content: Buffer): Promise<Row[]> {
  const database = await createBenchDatabase(opts.base);
  opts.cleanup.unshift(database.drop);
  const s3 = await startTestS3();
  opts.cleanup.unshift(s3.close);
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: "memory://", logger: createLogger("silent") });
  const rows: Row[] = [];
  try {
    const keys = { current: masterKey(randomBytes(32)), previous: [] };
    const backends: [StorageName, ObjectStorage][] = [
      ["local disk", new LocalDirectoryStorage(path.join(opts.work, "encryption-storage-layer"))],
      ["S3", new S3Storage(s3.client, s3.bucket)],
    ];
    for (const [name, backend] of backends) {
      const plain = await storageLayer(backend, content, opts.files, "plain", opts.rounds);
      const sealed = await storageLayer(new EncryptedStorage(backend, handle.db, keys), content, opts.files, "sealed", opts.rounds);
      for (const [what, measured, baseline] of [
        ["store", sealed.put, plain.put],
        ["read", sealed.get, plain.get],
      ] as const) {
        rows.push({
          benchmark: `Encryption at rest, storage layer alone, ${name}: ${what} 10 MB, ${CONCURRENCY} at a time`,
          measured: `${measured.toFixed(0)} MB/s`,
          baseline: `${baseline.toFixed(0)} MB/s (unencrypted)`,
          ratio: `${(measured / baseline).toFixed(2)}x`,
          target: "",
          result: "info",
        });
      }
    }
  } finally {
    await handle.close();
  }
  return rows;
}
