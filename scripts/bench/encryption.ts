// Encryption at rest's cost (issue 37): the same 10 MB files stored and read back through the plain
// storage and through the encrypting one over it, in the same run, on the local disk and on S3
// (s3rver on loopback). Storage-level, in this process: the HTTP path around it is the same for both
// and measured by the upload and ZIP rows, which now run encrypted.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { EncryptedStorage } from "../../server/storage/encrypted-storage.ts";
import { LocalDirectoryStorage } from "../../server/storage/local-directory-storage.ts";
import { masterKey } from "../../server/storage/object-encryption.ts";
import { S3Storage } from "../../server/storage/s3-storage.ts";
import type { ObjectStorage } from "../../server/storage/storage.ts";
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

/** MB/s storing and reading back `files` files through `storage`, best of two rounds. */
async function measure(storage: ObjectStorage, content: Buffer, files: number, tag: string): Promise<{ put: number; get: number }> {
  let put = 0;
  let get = 0;
  for (let round = 0; round < 2; round++) {
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

export async function benchEncryption(opts: { databaseUrl: string; work: string; files: number; s3: TestS3 }): Promise<Row[]> {
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
      const plain = await measure(backend, content, opts.files, "plain");
      const sealed = await measure(new EncryptedStorage(backend, handle.db, keys), content, opts.files, "sealed");
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
  } finally {
    await handle.close();
  }
  return rows;
}
