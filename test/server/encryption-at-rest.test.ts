// Documents encrypted at rest (issue 37; docs/security.md, "Documents encrypted at rest"): what lies
// on the disk and in the bucket is ciphertext (no PDF or image header, not the plaintext), while
// downloads, previews, ranges and ZIPs give back the original bytes; a flipped byte, a truncated
// file or swapped chunks answer an error, never data; a rotated master key still opens everything;
// a plaintext object from before is read, then encrypted by the background job. Real HTTP, real
// database, real local directory and a real S3-protocol server (s3rver).
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { CompiledQuery } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { STORED_FILE_DAMAGED } from "../../server/rest/errors.ts";
import { loadConfig } from "../../server/config.ts";
import { createLogger } from "../../server/logger.ts";
import { documentMasterKeys } from "../../server/storage/create-storage.ts";
import { encryptLegacyObjects, type LegacyCursor, pendingKeysQuery } from "../../server/storage/encrypt-legacy-objects.ts";
import { EncryptedStorage } from "../../server/storage/encrypted-storage.ts";
import { CHUNK_SIZE, encryptStream, HEADER_SIZE, MAGIC, masterKey, sealedChunkBuffers, TAG_SIZE } from "../../server/storage/object-encryption.ts";
import { rotateDocumentKeys } from "../../server/storage/rotate-document-keys.ts";
import { orphanedKeysDelete, sweepOrphanedObjects } from "../../server/storage/sweep-orphaned-objects.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";
import { startTestServer, TEST_DOCUMENT_ENCRYPTION_KEY, type TestServer } from "../helpers/server.ts";

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
const SEALED = CHUNK_SIZE + TAG_SIZE;

const PDF = Buffer.concat([
  Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n"),
  Buffer.from("Form 1040 SSN 123-45-6789 ".repeat(40)),
  Buffer.from("\n%%EOF\n"),
]);

type Document = { id: string; file_size: number; content_type: string };

async function upload(server: TestServer, client: ApiClient, bytes: Buffer, filename: string, type = "application/octet-stream"): Promise<Document> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  void server;
  return res.body as Document;
}

async function fetchBytes(server: TestServer, client: ApiClient, route: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${route}`, { headers: { Cookie: cookieOf(client), ...headers } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** What a client receives of a response that may be cut: the bytes that arrived, and whether it ended cleanly. */
async function receive(
  server: TestServer,
  client: ApiClient,
  route: string,
): Promise<{ status: number; bytes: Buffer; complete: boolean; body?: unknown }> {
  const res = await fetch(`${server.url}${route}`, { headers: { Cookie: cookieOf(client) } });
  const parts: Buffer[] = [];
  let complete = true;
  try {
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) parts.push(Buffer.from(part));
  } catch {
    complete = false;
  }
  const bytes = Buffer.concat(parts);
  const body = res.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(bytes.toString()) : undefined;
  return { status: res.status, bytes, complete, body };
}

function expectCiphertext(stored: Buffer, plain: Buffer) {
  expect(stored.subarray(0, 4).equals(MAGIC)).toBe(true);
  // A file's type marker is looked for where it counts: at the start, and where the content would
  // begin after the header. Anywhere in megabytes of ciphertext a 4-byte marker turns up by chance
  // (3 MB: about 1 in 700 runs, seen once); the 32-byte pieces below are what rule out the plaintext.
  for (const at of [0, HEADER_SIZE]) {
    const head = stored.subarray(at, at + 4);
    expect(head.equals(Buffer.from("%PDF"))).toBe(false);
    expect(head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
    expect(head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
  }
  // Not the plaintext, nor any 32-byte piece of it.
  for (let at = 0; at + 32 <= plain.length; at += Math.max(32, Math.floor(plain.length / 50))) {
    expect(stored.includes(plain.subarray(at, at + 32))).toBe(false);
  }
  // Header, one tag per chunk, the content: exactly as long as the format says.
  expect(stored.length).toBe(HEADER_SIZE + plain.length + TAG_SIZE * Math.max(1, Math.ceil(plain.length / CHUNK_SIZE)));
}

/** The same storage without the local directory's reader: objects opened from its stream, as on S3. */
function streamOnlyOf(storage: EncryptedStorage): EncryptedStorage {
  const backend = storage.backend;
  return new EncryptedStorage(
    {
      put: (k, b) => backend.put(k, b),
      get: (k, r) => backend.get(k, r),
      delete: (k) => backend.delete(k),
      list: () => backend.list(),
      check: () => backend.check(),
    },
    storage.db,
    storage.keys,
  );
}

async function storageKeyOf(server: TestServer, id: string): Promise<string> {
  const row = await server.db.selectFrom("documents").select("storage_key").where("id", "=", id).executeTakeFirstOrThrow();
  return row.storage_key;
}

function readZip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const entries = new Map<string, string>();
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith("/")) return zip.readEntry();
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr ?? new Error("no stream"));
          const parts: Buffer[] = [];
          stream.on("data", (p: Buffer) => parts.push(p));
          stream.on("end", () => {
            entries.set(entry.fileName, sha256(Buffer.concat(parts)));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

describe("on the local disk", () => {
  let server: TestServer;
  let alice: ApiClient;
  const fileOf = (key: string) => path.join(server.dataDir, "documents", key.slice(0, 2), key);

  beforeAll(async () => {
    server = await startTestServer();
    alice = await loginClient(server.url, await createUser(server.db));
  });
  afterAll(() => server.close());

  it("stores ciphertext and gives back the original bytes by download, preview and ZIP", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: "#047857" } })
      .png()
      .toBuffer();
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#047857" } })
      .jpeg()
      .toBuffer();
    const files = [
      { bytes: PDF, name: "return.pdf", type: "application/pdf" },
      { bytes: png, name: "w2.png", type: "image/png" },
      { bytes: jpeg, name: "receipt.jpg", type: "image/jpeg" },
      { bytes: randomBytes(3 * CHUNK_SIZE + 123), name: "big.bin", type: "application/octet-stream" },
      { bytes: randomBytes(2 * CHUNK_SIZE), name: "even.bin", type: "application/octet-stream" },
      { bytes: Buffer.alloc(0), name: "empty.txt", type: "text/plain" },
    ];
    const expected = new Map<string, string>();
    for (const file of files) {
      const doc = await upload(server, alice, file.bytes, file.name, file.type);
      expect(doc.file_size).toBe(file.bytes.length);
      expectCiphertext(fs.readFileSync(fileOf(await storageKeyOf(server, doc.id))), file.bytes);
      const download = await fetchBytes(server, alice, `/api/documents/${doc.id}/download`);
      expect(download.res.status).toBe(200);
      expect(download.res.headers.get("content-length")).toBe(String(file.bytes.length));
      expect(download.bytes.equals(file.bytes)).toBe(true);
      if (file.type !== "application/octet-stream" && file.bytes.length > 0) {
        expect(doc.content_type).toBe(file.type);
        const preview = await fetchBytes(server, alice, `/api/documents/${doc.id}/preview`);
        expect(preview.res.status).toBe(200);
        expect(preview.bytes.equals(file.bytes)).toBe(true);
      }
      expected.set(file.name, sha256(file.bytes));
    }
    const zip = await fetchBytes(server, alice, "/api/folders/root/download");
    expect(zip.res.status).toBe(200);
    const entries = await readZip(zip.bytes);
    for (const [name, sha] of expected) expect([...entries].find(([entry]) => entry.endsWith(name))?.[1], name).toBe(sha);
  });

  it("reads any byte range, reading only the chunks that hold it", async () => {
    const bytes = randomBytes(4 * CHUNK_SIZE + 777);
    const doc = await upload(server, alice, bytes, "ranges.bin");
    const key = await storageKeyOf(server, doc.id);
    const ranges = [
      [0, 0],
      [0, CHUNK_SIZE - 1],
      [CHUNK_SIZE - 1, CHUNK_SIZE],
      [CHUNK_SIZE, 2 * CHUNK_SIZE - 1],
      [12345, 3 * CHUNK_SIZE + 5],
      [4 * CHUNK_SIZE, bytes.length - 1],
      [bytes.length - 1, bytes.length - 1],
      [0, bytes.length - 1],
    ] as const;
    for (const [start, end] of ranges) {
      const body = await server.deps.storage.get(key, { start, end });
      const got = Buffer.concat(await body.toArray());
      expect(got.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it("reads alike through the file reader and through a stream, at every chunk edge, and refuses a file cut anywhere", async () => {
    const storage = server.deps.storage as EncryptedStorage;
    const backend = storage.backend;
    const streamOnly = streamOnlyOf(storage);
    expect(backend.openReader).toBeTypeOf("function");
    expect(streamOnly.backend.openReader).toBeUndefined();
    const read = async (on: EncryptedStorage, key: string, range?: { start: number; end: number }) =>
      Buffer.concat(await (await on.get(key, range)).toArray());
    for (const size of [0, 1, CHUNK_SIZE - 1, CHUNK_SIZE, CHUNK_SIZE + 1, 2 * CHUNK_SIZE]) {
      const bytes = randomBytes(size);
      const key = `edge-${size}-${randomBytes(8).toString("hex")}`;
      // Arriving in small pieces, as an upload does: a chunk is gathered from many of them.
      const pieces = Array.from({ length: Math.ceil(size / 1000) }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000));
      await storage.put(key, Readable.from(pieces));
      expect(fs.statSync(fileOf(key)).size, `${size}`).toBe(HEADER_SIZE + size + TAG_SIZE * Math.max(1, Math.ceil(size / CHUNK_SIZE)));
      for (const on of [storage, streamOnly]) {
        expect((await read(on, key)).equals(bytes), `${size} whole`).toBe(true);
        if (size === 0) continue;
        for (const [start, end] of [
          [0, 0],
          [size - 1, size - 1],
          [Math.max(0, size - CHUNK_SIZE - 2), size - 1],
        ] as const) {
          expect((await read(on, key, { start, end })).equals(bytes.subarray(start, end + 1)), `${size} ${start}-${end}`).toBe(true);
        }
      }
    }
    // Cut short: inside the header, inside a tag, at a chunk's end, one byte off the end.
    const bytes = randomBytes(2 * CHUNK_SIZE + 10);
    const key = `cut-${randomBytes(8).toString("hex")}`;
    await storage.put(key, Readable.from([bytes]));
    const whole = fs.readFileSync(fileOf(key));
    for (const length of [
      HEADER_SIZE - 1,
      HEADER_SIZE + 5,
      HEADER_SIZE + SEALED,
      HEADER_SIZE + 2 * SEALED,
      HEADER_SIZE + 2 * SEALED + TAG_SIZE - 1,
      whole.length - 1,
    ]) {
      fs.writeFileSync(fileOf(key), whole.subarray(0, length));
      for (const on of [storage, streamOnly]) {
        await expect(read(on, key), `${length} whole`).rejects.toThrow(/unreadable/);
        await expect(read(on, key, { start: bytes.length - 1, end: bytes.length - 1 }), `${length} last byte`).rejects.toThrow(/unreadable/);
      }
    }
    fs.writeFileSync(fileOf(key), whole);
    expect((await read(storage, key)).equals(bytes)).toBe(true);
  });

  it("reads many objects at once through the kept chunk buffers, never mixing them, and gets each buffer back", async () => {
    const storage = server.deps.storage as EncryptedStorage;
    const objects = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const bytes = randomBytes(3 * CHUNK_SIZE + 1000 * i);
        const key = `kept-${i}-${randomBytes(8).toString("hex")}`;
        await storage.put(key, Readable.from([bytes]));
        return { key, bytes };
      }),
    );
    /** Read slowly (a pause after every piece), so the reads' chunks interleave. */
    const readSlowly = async (key: string, stopAfter = Infinity, from = storage) => {
      const stream = await from.get(key);
      const parts: Buffer[] = [];
      let got = 0;
      for await (const part of stream) {
        parts.push(part as Buffer);
        got += (part as Buffer).length;
        if (got >= stopAfter) {
          stream.destroy();
          break;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      return Buffer.concat(parts);
    };
    // Through the file reader, and (one read of each object) through the stream S3 and backups use.
    const streamOnly = streamOnlyOf(storage);
    for (let round = 0; round < 2; round++) {
      const [stopped, streamStopped, ...whole] = await Promise.all([
        readSlowly(objects[0]!.key, CHUNK_SIZE + 1),
        readSlowly(objects[1]!.key, CHUNK_SIZE + 1, streamOnly),
        ...objects.map((o) => readSlowly(o.key)),
        ...objects.map((o) => readSlowly(o.key, Infinity, streamOnly)),
      ]);
      expect(stopped.equals(objects[0]!.bytes.subarray(0, stopped.length)), `round ${round}: the read stopped early`).toBe(true);
      expect(streamStopped.equals(objects[1]!.bytes.subarray(0, streamStopped.length)), `round ${round}: the stream stopped early`).toBe(true);
      whole.forEach((bytes, i) => expect(bytes.equals(objects[i % objects.length]!.bytes), `round ${round}: read ${i}`).toBe(true));
      // Every read has given its buffers back (the stopped one once its read under way settled), as
      // many as are kept; the second round read into buffers the first one kept.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sealedChunkBuffers.kept).toBe(sealedChunkBuffers.limit);
      expect(sealedChunkBuffers.kept).toBeLessThanOrEqual(sealedChunkBuffers.limit);
    }
  });

  it("gives a kept chunk buffer back only once the read into it has settled, when a download stops early", async () => {
    const storage = server.deps.storage as EncryptedStorage;
    const backend = storage.backend;
    // Chunk reads that take 200 ms, as a slow disk's would (the header's is quick); a buffer handed
    // to a second read while the first one into it is still under way is recorded.
    const underWay = new Set<ArrayBufferLike>();
    const reused: string[] = [];
    const slow = new EncryptedStorage(
      {
        put: (k, b) => backend.put(k, b),
        get: (k, r) => backend.get(k, r),
        delete: (k) => backend.delete(k),
        list: () => backend.list(),
        check: () => backend.check(),
        openReader: async (k) => {
          const reader = await backend.openReader!(k);
          return {
            size: reader.size,
            close: () => reader.close(),
            read: async (into, length, position) => {
              if (underWay.has(into.buffer)) reused.push(`${k} at ${position}`);
              underWay.add(into.buffer);
              try {
                if (length > HEADER_SIZE) await new Promise((resolve) => setTimeout(resolve, 200));
                return await reader.read(into, length, position);
              } finally {
                underWay.delete(into.buffer);
              }
            },
          };
        },
      },
      server.db,
      storage.keys,
    );
    const bytes = randomBytes(4 * CHUNK_SIZE);
    const key = `stopped-${randomBytes(8).toString("hex")}`;
    await storage.put(key, Readable.from([bytes]));
    for (let i = 0; i < 3; i++) {
      // The first chunk verified, the second one's read under way: the client goes away.
      const stopped = await slow.get(key);
      stopped.destroy();
      // A download that starts at once takes kept buffers: never the one still being read into.
      const next = Buffer.concat(await (await slow.get(key)).toArray());
      expect(next.equals(bytes)).toBe(true);
    }
    expect(reused).toEqual([]);
  });

  it("reads objects stored with the earlier 64 KiB chunks (their header says so), whole and by range", async () => {
    const EARLIER_CHUNK = 64 * 1024;
    const bytes = randomBytes(5 * EARLIER_CHUNK + 99);
    const doc = await upload(server, alice, bytes, "earlier.bin");
    const key = await storageKeyOf(server, doc.id);
    // New objects are written in chunks of CHUNK_SIZE.
    expect(fs.readFileSync(fileOf(key)).readUInt32BE(8)).toBe(CHUNK_SIZE);
    // The same object as it was written before the chunk size grew.
    const dataKey = (await (server.deps.storage as EncryptedStorage).dataKeyOf(key))!;
    const earlier = Buffer.concat(await Readable.from(encryptStream(Readable.from([bytes]), dataKey, EARLIER_CHUNK)).toArray());
    expect(earlier.readUInt32BE(8)).toBe(EARLIER_CHUNK);
    expect(earlier.length).toBe(HEADER_SIZE + bytes.length + 6 * TAG_SIZE);
    fs.writeFileSync(fileOf(key), earlier);
    const download = await fetchBytes(server, alice, `/api/documents/${doc.id}/download`);
    expect(download.res.status).toBe(200);
    expect(download.bytes.equals(bytes)).toBe(true);
    for (const [start, end] of [
      [0, 0],
      [EARLIER_CHUNK - 1, EARLIER_CHUNK],
      [3 * EARLIER_CHUNK + 5, bytes.length - 1],
    ] as const) {
      const got = Buffer.concat(await (await server.deps.storage.get(key, { start, end })).toArray());
      expect(got.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    // A flipped byte in its third chunk is refused as in any other, before any of it is handed out.
    earlier[HEADER_SIZE + 2 * (EARLIER_CHUNK + TAG_SIZE) + 10]! ^= 1;
    fs.writeFileSync(fileOf(key), earlier);
    await expect(server.deps.storage.get(key, { start: 2 * EARLIER_CHUNK, end: 2 * EARLIER_CHUNK + 20 })).rejects.toThrow(/chunk 2/);
  });

  it("answers an error, never data, for a flipped byte, a truncated file or swapped chunks", async () => {
    const small = await upload(server, alice, PDF, "flipped.pdf", "application/pdf");
    const smallFile = fileOf(await storageKeyOf(server, small.id));
    const stored = fs.readFileSync(smallFile);
    stored[HEADER_SIZE + 10]! ^= 0x01;
    fs.writeFileSync(smallFile, stored);
    for (const route of [`/api/documents/${small.id}/download`, `/api/documents/${small.id}/preview`]) {
      const res = await receive(server, alice, route);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ detail: STORED_FILE_DAMAGED });
      expect(res.bytes.includes(Buffer.from("%PDF"))).toBe(false);
    }
    expect(server.logs.some((l) => l.includes("fails its integrity check") && l.includes('"level":50'))).toBe(true);

    // The header itself (its nonce prefix) is authenticated too.
    const header = await upload(server, alice, PDF, "header.pdf", "application/pdf");
    const headerFile = fileOf(await storageKeyOf(server, header.id));
    const headerBytes = fs.readFileSync(headerFile);
    headerBytes[15]! ^= 0x80;
    fs.writeFileSync(headerFile, headerBytes);
    expect((await receive(server, alice, `/api/documents/${header.id}/download`)).status).toBe(500);

    const truncated = await upload(server, alice, PDF, "truncated.pdf", "application/pdf");
    const truncatedFile = fileOf(await storageKeyOf(server, truncated.id));
    fs.truncateSync(truncatedFile, fs.statSync(truncatedFile).size - 1);
    expect((await receive(server, alice, `/api/documents/${truncated.id}/download`)).status).toBe(500);

    // Several chunks: the ones that verify may go out, then the transfer breaks; nothing of the bad chunk is sent.
    const big = randomBytes(3 * CHUNK_SIZE + 50);
    const cases: [string, (file: string) => void][] = [
      ["flip in chunk 2", (file) => flipAt(file, HEADER_SIZE + 2 * SEALED + 7)],
      ["last chunk dropped", (file) => fs.truncateSync(file, HEADER_SIZE + 3 * SEALED)],
      [
        "chunks 1 and 2 swapped",
        (file) => {
          const b = fs.readFileSync(file);
          const one = Buffer.from(b.subarray(HEADER_SIZE + SEALED, HEADER_SIZE + 2 * SEALED));
          b.copy(b, HEADER_SIZE + SEALED, HEADER_SIZE + 2 * SEALED, HEADER_SIZE + 3 * SEALED);
          one.copy(b, HEADER_SIZE + 2 * SEALED);
          fs.writeFileSync(file, b);
        },
      ],
    ];
    for (const [name, damage] of cases) {
      const doc = await upload(server, alice, big, `${name}.bin`);
      damage(fileOf(await storageKeyOf(server, doc.id)));
      const res = await receive(server, alice, `/api/documents/${doc.id}/download`);
      expect(res.complete && res.bytes.length === big.length, name).toBe(false);
      expect(res.bytes.length, name).toBeLessThanOrEqual(2 * CHUNK_SIZE);
      expect(res.bytes.equals(big.subarray(0, res.bytes.length)), name).toBe(true);
    }

    // A ZIP holding a damaged file breaks instead of ending as if complete.
    const zip = await receive(server, alice, "/api/folders/root/download");
    expect(zip.complete).toBe(false);

    // The server still answers.
    const healthy = await upload(server, alice, PDF, "healthy.pdf", "application/pdf");
    expect((await fetchBytes(server, alice, `/api/documents/${healthy.id}/download`)).bytes.equals(PDF)).toBe(true);
  });

  it("keeps serving the site's pictures and video, ranges included", async () => {
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), randomBytes(3 * CHUNK_SIZE)]);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(video)], { type: "video/mp4" }), "welcome.mp4");
    const res = await admin.request("POST", "/api/admin/site-media/video", { body: form });
    expect(res.status, res.text).toBe(201);
    const row = await server.db.selectFrom("site_media").select("storage_key").where("slot", "=", "video").executeTakeFirstOrThrow();
    expectCiphertext(fs.readFileSync(fileOf(row.storage_key)), video);
    const whole = await fetch(`${server.url}${res.body.url}`);
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    const start = CHUNK_SIZE - 10;
    const end = 2 * CHUNK_SIZE + 10;
    const part = await fetch(`${server.url}${res.body.url}`, { headers: { Range: `bytes=${start}-${end}` } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(start, end + 1))).toBe(true);
  });
});

function flipAt(file: string, at: number) {
  const b = fs.readFileSync(file);
  b[at]! ^= 0x01;
  fs.writeFileSync(file, b);
}

describe("rotation and objects from before", () => {
  const K2 = Buffer.alloc(32, 9).toString("base64");
  let server: TestServer;
  let alice: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await loginClient(server.url, await createUser(server.db));
  });
  afterAll(() => server.close());

  it("opens every document after the master key is rotated, on a server that knows only the new key", async () => {
    const files = [PDF, randomBytes(2 * CHUNK_SIZE + 9)];
    const docs = [];
    for (const [i, bytes] of files.entries()) docs.push(await upload(server, alice, bytes, `doc-${i}.pdf`));
    const keys = { current: masterKey(Buffer.from(K2, "base64")), previous: [masterKey(Buffer.from(TEST_DOCUMENT_ENCRYPTION_KEY, "base64"))] };
    const result = await rotateDocumentKeys(server.db, keys, { batch: 1 });
    expect(result.unknownKey).toBe(0);
    expect(result.rewrapped).toBeGreaterThanOrEqual(files.length);
    const left = await server.db.selectFrom("stored_object_keys").select("storage_key").where("master_key_id", "!=", keys.current.id).execute();
    expect(left).toEqual([]);
    // Again: nothing left to do.
    expect((await rotateDocumentKeys(server.db, keys)).rewrapped).toBe(0);

    // The same database and files, served with the new key alone.
    const rotated = await startTestServer({
      dataDir: server.dataDir,
      database: { ...server.database, close: async () => {} },
      env: { DOCUMENT_ENCRYPTION_KEY: K2 },
    });
    try {
      for (const [i, doc] of docs.entries()) {
        const { res, bytes } = await fetchBytes(rotated, alice, `/api/documents/${doc.id}/download`);
        expect(res.status).toBe(200);
        expect(bytes.equals(files[i]!)).toBe(true);
      }
    } finally {
      await rotated.close();
    }
    // The old server, which knows only the old key, refuses rather than guesses.
    const refused = await receive(server, alice, `/api/documents/${docs[0]!.id}/download`);
    expect(refused.status).toBe(500);
  });

  it("reads a plaintext object from before, and the background job encrypts it in place of the old one", async () => {
    const storage = server.deps.storage as EncryptedStorage;
    const bytes = Buffer.concat([PDF, randomBytes(CHUNK_SIZE)]);
    const doc = await upload(server, alice, bytes, "legacy.pdf", "application/pdf");
    const oldKey = await storageKeyOf(server, doc.id);
    // As it was stored before this change: plaintext, and no key row.
    await storage.backend.put(oldKey, Readable.from([bytes]));
    await server.db.deleteFrom("stored_object_keys").where("storage_key", "=", oldKey).execute();
    const file = path.join(server.dataDir, "documents", oldKey.slice(0, 2), oldKey);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    const before = await fetchBytes(server, alice, `/api/documents/${doc.id}/download`);
    expect(before.bytes.equals(bytes)).toBe(true);
    const ranged = Buffer.concat(await (await storage.get(oldKey, { start: 5, end: 99 })).toArray());
    expect(ranged.equals(bytes.subarray(5, 100))).toBe(true);

    // A site picture from before too.
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const logo = await sharp({ create: { width: 32, height: 32, channels: 4, background: "#047857" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(logo)], { type: "image/png" }), "logo.png");
    const media = await admin.request("POST", "/api/admin/site-media/logo", { body: form });
    expect(media.status, media.text).toBe(201);
    const served = Buffer.from(await (await fetch(`${server.url}${media.body.url}`)).arrayBuffer());
    const oldMediaKey = (await server.db.selectFrom("site_media").select("storage_key").where("slot", "=", "logo").executeTakeFirstOrThrow())
      .storage_key;
    await storage.backend.put(oldMediaKey, Readable.from([served]));
    await server.db.deleteFrom("stored_object_keys").where("storage_key", "=", oldMediaKey).execute();

    let cursor: LegacyCursor | null = { table: "documents" };
    while (cursor) cursor = await encryptLegacyObjects(server.deps, cursor);

    const newKey = await storageKeyOf(server, doc.id);
    expect(newKey).not.toBe(oldKey);
    expect(fs.existsSync(file)).toBe(false);
    expectCiphertext(fs.readFileSync(path.join(server.dataDir, "documents", newKey.slice(0, 2), newKey)), bytes);
    // The other server's key (the rotation test) is unknown here; this document is under the current one.
    const after = await fetchBytes(server, alice, `/api/documents/${doc.id}/download`);
    expect(after.res.status).toBe(200);
    expect(after.bytes.equals(bytes)).toBe(true);
    const newMediaKey = (await server.db.selectFrom("site_media").select("storage_key").where("slot", "=", "logo").executeTakeFirstOrThrow())
      .storage_key;
    expect(newMediaKey).not.toBe(oldMediaKey);
    expectCiphertext(fs.readFileSync(path.join(server.dataDir, "documents", newMediaKey.slice(0, 2), newMediaKey)), served);
    expect(Buffer.from(await (await fetch(`${server.url}${media.body.url}`)).arrayBuffer()).equals(served)).toBe(true);

    const pending = await server.db
      .selectFrom("documents")
      .select("storage_key")
      .where("storage_key", "not in", server.db.selectFrom("stored_object_keys").select("storage_key"))
      .execute();
    expect(pending).toEqual([]);
  });
});

describe("data keys left behind", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("are removed by the orphan sweep once an hour old, while a document's key and a fresh one stay", async () => {
    const alice = await loginClient(server.url, await createUser(server.db));
    const doc = await upload(server, alice, PDF, "kept.pdf", "application/pdf");
    const kept = await storageKeyOf(server, doc.id);
    await server.db
      .updateTable("stored_object_keys")
      .set({ created_at: new Date(Date.now() - 3 * 3600_000) })
      .execute();
    const old = "0a1b2c3d-0000-4000-8000-00000000aaaa";
    const fresh = "0a1b2c3d-0000-4000-8000-00000000bbbb";
    await server.db
      .insertInto("stored_object_keys")
      .values([
        { storage_key: old, wrapped_key: Buffer.alloc(60), master_key_id: "x", created_at: new Date(Date.now() - 2 * 3600_000) },
        { storage_key: fresh, wrapped_key: Buffer.alloc(60), master_key_id: "x" },
      ])
      .execute();
    await sweepOrphanedObjects(server.deps);
    const left = (await server.db.selectFrom("stored_object_keys").select("storage_key").execute()).map((r) => r.storage_key);
    expect(left.sort()).toEqual([kept, fresh].sort());
    const download = await fetchBytes(server, alice, `/api/documents/${doc.id}/download`);
    expect(download.bytes.equals(PDF)).toBe(true);
  });

  it("are found, as the objects still to encrypt are, by anti-joins that never check every key row per row", async () => {
    // NOT IN over every key row becomes a subplan run for each row once the keys outgrow work_mem
    // (with 300,000 keys the job's query had not ended after 20 s). The plans must be anti-joins.
    const plans: string[] = [];
    for (const compiled of [
      orphanedKeysDelete(server.db, new Date()).compile(),
      pendingKeysQuery(server.db, { table: "documents" }).compile(),
      pendingKeysQuery(server.db, { table: "site_media", afterKey: "a" }).compile(),
    ]) {
      const { rows } = await server.db.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
      plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
    }
    for (const plan of plans) {
      expect(plan).toMatch(/Anti Join/);
      expect(plan).not.toMatch(/SubPlan/);
    }
  });
});

describe("in an S3 bucket", () => {
  let s3: TestS3;
  let server: TestServer;
  let carol: ApiClient;

  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer({ env: s3.env });
    carol = await loginClient(server.url, await createUser(server.db));
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  async function objectBytes(key: string): Promise<Buffer> {
    const { Body } = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    return Buffer.from(await Body!.transformToByteArray());
  }

  it("keeps ciphertext in the bucket, gives back the original bytes, and refuses a flipped byte", async () => {
    const big = randomBytes(2 * CHUNK_SIZE + 5);
    for (const [bytes, name, type] of [
      [PDF, "return.pdf", "application/pdf"],
      [big, "big.bin", "application/octet-stream"],
    ] as const) {
      const doc = await upload(server, carol, bytes, name, type);
      const key = await storageKeyOf(server, doc.id);
      expectCiphertext(await objectBytes(key), bytes);
      const download = await fetchBytes(server, carol, `/api/documents/${doc.id}/download`);
      expect(download.res.status).toBe(200);
      expect(download.bytes.equals(bytes)).toBe(true);
      const range = Buffer.concat(await (await server.deps.storage.get(key, { start: 3, end: bytes.length - 2 })).toArray());
      expect(range.equals(bytes.subarray(3, bytes.length - 1))).toBe(true);
    }
    const zip = await fetchBytes(server, carol, "/api/folders/root/download");
    const entries = await readZip(zip.bytes);
    expect([...entries.values()]).toEqual(expect.arrayContaining([sha256(PDF), sha256(big)]));

    const doc = await upload(server, carol, PDF, "tampered.pdf", "application/pdf");
    const key = await storageKeyOf(server, doc.id);
    const stored = await objectBytes(key);
    stored[HEADER_SIZE + 1]! ^= 0x04;
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: stored }));
    const res = await receive(server, carol, `/api/documents/${doc.id}/download`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: STORED_FILE_DAMAGED });
  });
});

describe("the master key", () => {
  it("is generated once under DATA_DIR (0600) when none is configured, and is required in production with S3", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-key-"));
    try {
      const logger = createLogger("silent");
      const first = documentMasterKeys(loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir }), logger);
      const file = path.join(dataDir, "document-encryption.key");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const again = documentMasterKeys(loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir }), logger);
      expect(again.current.id).toBe(first.current.id);
      expect(() => documentMasterKeys(loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir, S3_BUCKET: "documents" }), logger)).toThrow(
        /DOCUMENT_ENCRYPTION_KEY: must be set/,
      );
      const configured = documentMasterKeys(
        loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir, S3_BUCKET: "documents", DOCUMENT_ENCRYPTION_KEY: TEST_DOCUMENT_ENCRYPTION_KEY }),
        logger,
      );
      expect(configured.current.id).toBe(masterKey(Buffer.from(TEST_DOCUMENT_ENCRYPTION_KEY, "base64")).id);
      expect(() => loadConfig({ DOCUMENT_ENCRYPTION_KEY: "too-short" })).toThrow(/DOCUMENT_ENCRYPTION_KEY: must be 32 bytes/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
