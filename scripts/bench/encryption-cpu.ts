// The CPU that encryption at rest costs per megabyte (issue 37), which a loaded machine does not
// blur the way it blurs throughput: 16 files of 10 MB stored and read back, 8 at a time, through
// the local directory storage with and without the encrypting layer, in this process, interleaved,
// best of three rounds; the data keys go to a bench database on Postgres (BENCH_DATABASE_URL or
// DATABASE_URL's server, as run.ts), another process, as in production. Throughput is printed
// beside it. Run: npx tsx scripts/bench/encryption-cpu.ts (docs/performance.md, "Encryption at rest").
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { EncryptedStorage } from "../../server/storage/encrypted-storage.ts";
import { LocalDirectoryStorage } from "../../server/storage/local-directory-storage.ts";
import { masterKey } from "../../server/storage/object-encryption.ts";
import type { ObjectStorage } from "../../server/storage/storage.ts";
import { createBenchDatabase } from "./database.ts";

const FILE_BYTES = 10_000_000;
const FILES = 16;
const CONCURRENCY = 8;
const ROUNDS = 3;

const database = await createBenchDatabase(
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
);
const handle = await openDatabase({ databaseUrl: database.url, dataDir: "memory://", logger: createLogger("silent") });
const work = fs.mkdtempSync(path.join(os.tmpdir(), "encryption-cpu-"));
try {
  const backend = new LocalDirectoryStorage(work);
  const storages: [string, ObjectStorage][] = [
    ["unencrypted", backend],
    ["encrypted", new EncryptedStorage(backend, handle.db, { current: masterKey(randomBytes(32)), previous: [] })],
  ];
  const content = randomBytes(FILE_BYTES);
  // 64 KiB pieces, as an upload arrives.
  const pieces = function* () {
    for (let at = 0; at < content.length; at += 65536) yield content.subarray(at, at + 65536);
  };
  const pool = async (task: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < FILES) await task(next++);
      }),
    );
  };
  /** CPU milliseconds (all threads) and wall milliseconds of `task`. */
  const measured = async (task: () => Promise<void>) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await task();
    const used = process.cpuUsage(cpu);
    return { cpu: (used.user + used.system) / 1000, wall: performance.now() - started };
  };
  const best = new Map<string, { cpu: number; wall: number }>();
  const keep = (name: string, m: { cpu: number; wall: number }) => {
    const had = best.get(name);
    best.set(name, { cpu: Math.min(had?.cpu ?? Infinity, m.cpu), wall: Math.min(had?.wall ?? Infinity, m.wall) });
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, storage] of storages) {
      const keys = Array.from({ length: FILES }, () => randomUUID());
      keep(`${name} store`, await measured(() => pool((i) => storage.put(keys[i]!, Readable.from(pieces())))));
      keep(
        `${name} read`,
        await measured(() =>
          pool(async (i) => {
            let bytes = 0;
            for await (const part of await storage.get(keys[i]!)) bytes += (part as Buffer).length;
            if (bytes !== FILE_BYTES) throw new Error(`read ${bytes} bytes of ${FILE_BYTES}`);
          }),
        ),
      );
      for (const key of keys) await storage.delete(key);
    }
  }
  const megabytes = (FILES * FILE_BYTES) / 1e6;
  for (const what of ["store", "read"]) {
    const plain = best.get(`unencrypted ${what}`)!;
    const sealed = best.get(`encrypted ${what}`)!;
    console.log(
      `${what}: CPU ${(sealed.cpu / megabytes).toFixed(2)} ms/MB encrypted, ${(plain.cpu / megabytes).toFixed(2)} unencrypted; ` +
        `${(megabytes / (sealed.wall / 1000)).toFixed(0)} MB/s encrypted, ${(megabytes / (plain.wall / 1000)).toFixed(0)} unencrypted ` +
        `(${(plain.wall / sealed.wall).toFixed(2)}x)`,
    );
  }
} finally {
  await handle.close();
  await database.drop();
  fs.rmSync(work, { recursive: true, force: true });
}
