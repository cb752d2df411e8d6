// The storage contract, run against both implementations: the local directory and S3 (a real
// S3-protocol server on loopback). Whatever the app relies on from storage is asserted here once
// for each, so the two cannot drift apart.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger.ts";
import { LocalDirectoryStorage } from "../../server/storage/local-directory-storage.ts";
import { createS3Client, S3Storage } from "../../server/storage/s3-storage.ts";
import { ObjectNotFoundError, type ObjectStorage } from "../../server/storage/storage.ts";
import { ORPHAN_AGE_MS, sweepOrphanedObjects } from "../../server/storage/sweep-orphaned-objects.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { createUser } from "../helpers/factories.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";

const MiB = 1024 * 1024;
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

let s3: TestS3;
let localRoot: string;
let database: TestDatabase;

beforeAll(async () => {
  s3 = await startTestS3();
  localRoot = fs.mkdtempSync(path.join(os.tmpdir(), "portal-storage-"));
  database = await createTestDatabase();
});
afterAll(async () => {
  await s3?.close();
  await database?.close();
  fs.rmSync(localRoot, { recursive: true, force: true });
});

type Implementation = {
  name: string;
  create: () => ObjectStorage;
  /** Every object in the store, seen from outside the implementation (half-written ones included). */
  rawObjects: () => Promise<string[]>;
};

const implementations: Implementation[] = [
  {
    name: "local directory",
    create: () => new LocalDirectoryStorage(localRoot),
    rawObjects: async () =>
      fs.readdirSync(localRoot, { recursive: true, encoding: "utf8" }).filter((f) => fs.statSync(path.join(localRoot, f)).isFile()),
  },
  {
    name: "S3",
    create: () => new S3Storage(s3.client, s3.bucket),
    rawObjects: async () => {
      const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      return (page.Contents ?? []).map((o) => o.Key!);
    },
  },
];

/** Yields `total` random bytes in 64 KiB chunks, then fails with `failWith` if given. */
function source(total: number, failWith?: Error): { stream: Readable; bytes: Buffer } {
  const bytes = randomBytes(total);
  async function* chunks() {
    for (let offset = 0; offset < total; offset += 64 * 1024) {
      yield bytes.subarray(offset, Math.min(total, offset + 64 * 1024));
      await new Promise(setImmediate);
    }
    if (failWith) throw failWith;
  }
  return { stream: Readable.from(chunks(), { objectMode: false }), bytes };
}

const read = async (stream: Readable) => Buffer.concat(await stream.toArray());

describe.each(implementations)("$name storage", ({ create, rawObjects }) => {
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = create();
  });

  it("stores and returns identical bytes: empty, small, and larger than one 5 MiB part", async () => {
    for (const size of [0, 1000, 12 * MiB + 7]) {
      const key = randomUUID();
      const { stream, bytes } = source(size);
      await storage.put(key, stream);
      expect(sha256(await read(await storage.get(key))), `${size} bytes`).toBe(sha256(bytes));
      await storage.delete(key);
    }
  });

  it("reads a byte range, both ends included: the start, the middle, the last byte, across a part (the video's 206)", async () => {
    const key = randomUUID();
    const { stream, bytes } = source(6 * MiB + 100);
    await storage.put(key, stream);
    // Not [0, 0]: s3rver, the test's S3 server, answers "bytes=0-0" with the whole object (AWS does not).
    for (const [start, end] of [
      [0, 1],
      [100, 199],
      [bytes.length - 1, bytes.length - 1],
      [5 * MiB - 10, 5 * MiB + 10],
    ] as const) {
      const part = await read(await storage.get(key, { start, end }));
      expect(part.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    await storage.delete(key);
    await expect(storage.get(key, { start: 0, end: 9 })).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it("answers ObjectNotFoundError for a missing key, and deleting one is not an error", async () => {
    const key = randomUUID();
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await storage.delete(key);
    await storage.put(key, source(10).stream);
    await storage.delete(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it("keeps nothing when the body fails, in the first part or after a part went up", async () => {
    const before = (await rawObjects()).sort();
    for (const size of [100_000, 7 * MiB]) {
      const key = randomUUID();
      await expect(storage.put(key, source(size, new Error("client went away")).stream)).rejects.toThrow("client went away");
      await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    }
    expect((await rawObjects()).sort()).toEqual(before);
  });

  it("keeps nothing when the body is destroyed while being stored", async () => {
    const before = (await rawObjects()).sort();
    for (const size of [100_000, 7 * MiB]) {
      const key = randomUUID();
      const { stream } = source(20 * MiB);
      let seen = 0;
      stream.on("data", (chunk: Buffer) => {
        seen += chunk.length;
        if (seen >= size) stream.destroy();
      });
      await expect(storage.put(key, stream)).rejects.toThrow();
      await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    }
    expect((await rawObjects()).sort()).toEqual(before);
  });

  it("lists each stored object with the time it was written", async () => {
    const keys = [randomUUID(), randomUUID()];
    const before = Date.now();
    for (const key of keys) await storage.put(key, source(100).stream);
    const listed = new Map<string, Date>();
    for await (const { key, lastModified } of storage.list()) listed.set(key, lastModified);
    for (const key of keys) {
      expect(listed.has(key), key).toBe(true);
      // S3 keeps whole seconds.
      expect(Math.abs(listed.get(key)!.getTime() - before)).toBeLessThan(60_000);
    }
    for (const key of keys) await storage.delete(key);
  });

  it("refuses a key that could name a path or another object", async () => {
    await expect(storage.get("../../../../etc/passwd")).rejects.toThrow(/Invalid storage key/);
    await expect(storage.put("../escape-attempt-0000", source(1).stream)).rejects.toThrow(/Invalid storage key/);
    await expect(storage.delete("Uppercase/Other-Key-0000")).rejects.toThrow(/Invalid storage key/);
  });

  it("answers the readiness check", async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it("sweeps objects older than an hour that no document row names, and only those", async () => {
    const user = await createUser(database.db);
    const kept = randomUUID();
    const orphan = randomUUID();
    for (const key of [kept, orphan]) await storage.put(key, source(100).stream);
    await database.db
      .insertInto("documents")
      .values({
        account_id: user.id,
        folder_id: null,
        original_filename: "kept.bin",
        storage_key: kept,
        content_type: "application/octet-stream",
        file_size: 100,
        sha256: "0".repeat(64),
      })
      .execute();
    const deps = { db: database.db, storage, logger: createLogger("silent") };

    // Fresh: an upload may still be on its way to its row.
    expect(await sweepOrphanedObjects({ ...deps, now: () => new Date() })).toBe(0);
    (await storage.get(orphan)).destroy();

    const later = () => new Date(Date.now() + ORPHAN_AGE_MS + 60_000);
    expect(await sweepOrphanedObjects({ ...deps, now: later })).toBeGreaterThanOrEqual(1);
    await expect(storage.get(orphan)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await read(await storage.get(kept))).toHaveLength(100);
    await database.db.deleteFrom("documents").where("storage_key", "=", kept).execute();
    await storage.delete(kept);
  });
});

describe("readiness of unreachable storage", () => {
  it("fails for a local directory that is gone", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "portal-gone-"));
    const storage = new LocalDirectoryStorage(root);
    fs.rmSync(root, { recursive: true });
    await expect(storage.check()).rejects.toThrow();
  });

  it("fails for a bucket that does not exist and for a server that does not answer", async () => {
    await expect(new S3Storage(s3.client, "no-such-bucket").check()).rejects.toThrow();
    const nobody = createS3Client({ ...s3.settings, endpoint: "http://127.0.0.1:9" });
    await expect(new S3Storage(nobody, s3.bucket).check()).rejects.toThrow();
    nobody.destroy();
  });
});
