// ZIP downloads (issue 17): a folder with all its subfolders, or everything the caller has, streamed
// as a ZIP whose entries are the uploaded bytes (read back with yauzl, compared by SHA-256) under
// safe, unique paths; other clients' folders are 404; it works on S3 storage too; and a client that
// goes away halfway leaves a server that still answers and holds no file open.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { createUser, loginClient } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let alice: ApiClient;
let bob: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  alice = await loginClient(server.url, await createUser(server.db));
  bob = await loginClient(server.url, await createUser(server.db));
});
afterAll(() => server.close());

type Document = { id: string; original_filename: string };
type Folder = { id: string; name: string };

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

async function upload(client: ApiClient, name: string, opts: { folderId?: string; bytes?: Buffer } = {}): Promise<{ doc: Document; sha: string }> {
  const bytes = opts.bytes ?? randomBytes(1000 + Math.floor(Math.random() * 5000));
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  if (opts.folderId) form.append("folder_id", opts.folderId);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return { doc: res.body, sha: sha256(bytes) };
}

async function createFolder(client: ApiClient, name: string, parentId: string | null = null): Promise<Folder> {
  const res = await client.post("/api/folders", { name, parent_folder_id: parentId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Every entry of a ZIP: a file's SHA-256, or "dir" for a directory. yauzl refuses unsafe names itself. */
function readZip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, strictFileNames: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const entries = new Map<string, string>();
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entries.has(entry.fileName)) return reject(new Error(`duplicate entry ${entry.fileName}`));
        if (entry.fileName.endsWith("/")) {
          entries.set(entry.fileName, "dir");
          zip.readEntry();
          return;
        }
        // Stored, not recompressed.
        if (entry.compressionMethod !== 0) return reject(new Error(`${entry.fileName} is compressed (${entry.compressionMethod})`));
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr ?? new Error("no stream"));
          const hash = createHash("sha256");
          stream.on("data", (chunk: Buffer) => hash.update(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, hash.digest("hex"));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

async function downloadZip(baseUrl: string, client: ApiClient, folder: string) {
  const res = await fetch(`${baseUrl}/api/folders/${folder}/download`, { headers: { Cookie: cookieOf(client) } });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

describe("GET /api/folders/:id/download", () => {
  it("streams the folder and its subfolders as a ZIP of the uploaded bytes, under paths relative to the folder", async () => {
    const taxes = await createFolder(alice, `Taxes ${randomUUID().slice(0, 6)}`);
    const y2024 = await createFolder(alice, "2024", taxes.id);
    const quarter = await createFolder(alice, "Q1", y2024.id);
    await createFolder(alice, "Empty", taxes.id);
    const elsewhere = await createFolder(alice, `Elsewhere ${randomUUID().slice(0, 6)}`);

    const summary = await upload(alice, "summary.txt", { folderId: taxes.id });
    const w2 = await upload(alice, "W-2.pdf", { folderId: y2024.id });
    const w2Again = await upload(alice, "W-2.pdf", { folderId: y2024.id });
    const w2Lower = await upload(alice, "w-2.pdf", { folderId: y2024.id });
    const receipt = await upload(alice, "receipt.jpg", { folderId: quarter.id });
    const trashed = await upload(alice, "trashed.pdf", { folderId: y2024.id });
    expect((await alice.delete(`/api/documents/${trashed.doc.id}`)).status).toBe(200);
    await upload(alice, "not-in-this-folder.pdf", { folderId: elsewhere.id });
    await upload(alice, "root.pdf");

    const { res, body } = await downloadZip(server.url, alice, taxes.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${taxes.name}.zip"; filename*=UTF-8''${encodeURIComponent(taxes.name)}.zip`,
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toMatch(/^private, no-store\b/);
    expect(res.headers.get("content-length")).toBeNull();

    const entries = await readZip(body);
    expect(Object.fromEntries(entries)).toEqual({
      "summary.txt": summary.sha,
      "2024/": "dir",
      "2024/W-2.pdf": w2.sha,
      // Duplicates in one directory, whatever their case, are numbered in upload order.
      "2024/W-2 (2).pdf": w2Again.sha,
      "2024/w-2 (3).pdf": w2Lower.sha,
      "2024/Q1/": "dir",
      "2024/Q1/receipt.jpg": receipt.sha,
      "Empty/": "dir",
    });
  });

  it("makes every name safe to extract: no separators, no control characters, no . or .., nothing Windows refuses", async () => {
    const top = await createFolder(alice, `Names ${randomUUID().slice(0, 6)}`);
    const dots = await createFolder(alice, "..", top.id);
    const slashes = await createFolder(alice, "a/b\\c", top.id);
    await createFolder(alice, "a_b_c", top.id);
    const question = await upload(alice, "invoice: march?*.pdf", { folderId: top.id });
    const inDots = await upload(alice, "deep.pdf", { folderId: dots.id });
    const inSlashes = await upload(alice, "x.pdf", { folderId: slashes.id });
    const trailing = await upload(alice, "notes. . .", { folderId: top.id });
    // The upload already removes control characters and paths from a name; rename can set the rest.
    expect((await alice.patch(`/api/documents/${trailing.doc.id}`, { name: "report.pdf. " })).status).toBe(200);

    const entries = await readZip((await downloadZip(server.url, alice, top.id)).body);
    expect(Object.fromEntries(entries)).toEqual({
      "invoice_ march__.pdf": question.sha,
      "report.pdf": trailing.sha,
      "unnamed/": "dir",
      "unnamed/deep.pdf": inDots.sha,
      "a_b_c/": "dir",
      // The cleaned name of "a/b\c" meets the real "a_b_c" folder.
      "a_b_c (2)/": "dir",
      "a_b_c (2)/x.pdf": inSlashes.sha,
    });
    for (const name of entries.keys()) {
      expect(name).not.toMatch(/^\/|\\|(^|\/)\.\.?(\/|$)|\p{Cc}/u);
    }
  });

  it("downloads everything the caller has as Documents.zip at /api/folders/root/download", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    const folder = await createFolder(client, "Receipts");
    const inRoot = await upload(client, "root.pdf");
    const inFolder = await upload(client, "lunch.jpg", { folderId: folder.id });
    await createFolder(client, "Nothing yet");

    const { res, body } = await downloadZip(server.url, client, "root");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Documents.zip"; filename*=UTF-8''Documents.zip`);
    expect(Object.fromEntries(await readZip(body))).toEqual({
      "root.pdf": inRoot.sha,
      "Nothing yet/": "dir",
      "Receipts/": "dir",
      "Receipts/lunch.jpg": inFolder.sha,
    });

    const empty = await loginClient(server.url, await createUser(server.db));
    const nothing = await downloadZip(server.url, empty, "root");
    expect(nothing.res.status).toBe(200);
    expect((await readZip(nothing.body)).size).toBe(0);
  });

  it("answers another client's folder exactly like a missing one (404), and 401 without a session", async () => {
    const folder = await createFolder(alice, `Private ${randomUUID().slice(0, 6)}`);
    await upload(alice, "private.pdf", { folderId: folder.id });
    const foreign = await bob.get(`/api/folders/${folder.id}/download`);
    const missing = await bob.get(`/api/folders/${randomUUID()}/download`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: "Folder not found" });
    expect(missing.body).toEqual(foreign.body);
    expect((await fetch(`${server.url}/api/folders/${folder.id}/download`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/folders/root/download`)).status).toBe(401);
    // Bob's own ZIP of everything holds nothing of Alice's.
    const bobs = await readZip((await downloadZip(server.url, bob, "root")).body);
    expect([...bobs.keys()].some((name) => name.includes("private.pdf") || name.includes(folder.name))).toBe(false);
  });

  it("cuts the response short (never a complete-looking ZIP) when a stored file is missing", async () => {
    const folder = await createFolder(alice, `Broken ${randomUUID().slice(0, 6)}`);
    await upload(alice, "fine.pdf", { folderId: folder.id });
    const lost = await upload(alice, "lost.pdf", { folderId: folder.id });
    const { storage_key } = await server.db.selectFrom("documents").select("storage_key").where("id", "=", lost.doc.id).executeTakeFirstOrThrow();
    await server.deps.storage.delete(storage_key);

    const res = await fetch(`${server.url}/api/folders/${folder.id}/download`, { headers: { Cookie: cookieOf(alice) } });
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    await expect.poll(() => server.logs.some((line) => line.includes("ZIP download cut short") && line.includes(storage_key))).toBe(true);
    expect((await alice.get("/api/folders")).status).toBe(200);
  });

  it("stops at once when the client goes away halfway: the server still answers and holds no file open", async () => {
    const folder = await createFolder(alice, `Big ${randomUUID().slice(0, 6)}`);
    const files = [];
    for (let i = 0; i < 4; i++) files.push(await upload(alice, `big-${i}.bin`, { folderId: folder.id, bytes: randomBytes(8 * 1024 * 1024) }));
    // The server runs in this process: its open stored files are ours to count.
    const openStoredFiles = () =>
      fs.readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(server.dataDir);
        } catch {
          return false;
        }
      }).length;
    expect(openStoredFiles()).toBe(0);

    for (let round = 0; round < 3; round++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${server.url}/api/folders/${folder.id}/download`, { headers: { Cookie: cookieOf(alice) } }, (res) => {
          expect(res.statusCode).toBe(200);
          let received = 0;
          res.on("data", (chunk: Buffer) => {
            received += chunk.length;
            // Well into the first file, with three more to come.
            if (received > 1024 * 1024) {
              req.destroy();
              resolve();
            }
          });
          res.on("error", () => {});
        });
        req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
      });
    }
    await expect.poll(openStoredFiles, { timeout: 5_000 }).toBe(0);
    expect((await alice.get("/api/folders")).status).toBe(200);
    // And a whole download still works.
    const entries = await readZip((await downloadZip(server.url, alice, folder.id)).body);
    expect([...entries.values()].sort()).toEqual(files.map((f) => f.sha).sort());
  });
});

describe("ZIP downloads on S3 storage", () => {
  let s3: TestS3;
  let s3Server: TestServer;
  beforeAll(async () => {
    s3 = await startTestS3();
    s3Server = await startTestServer({ env: s3.env });
  });
  afterAll(async () => {
    await s3Server?.close();
    await s3?.close();
  });

  it("reads the objects from the bucket one at a time into the same ZIP", async () => {
    const carol = await loginClient(s3Server.url, await createUser(s3Server.db));
    const folder = await createFolder(carol, "Statements");
    const sub = await createFolder(carol, "2025", folder.id);
    const uploads = [
      await upload(carol, "jan.pdf", { folderId: folder.id, bytes: randomBytes(3 * 1024 * 1024) }),
      await upload(carol, "feb.pdf", { folderId: sub.id }),
      await upload(carol, "feb.pdf", { folderId: sub.id }),
    ];
    const requestsBefore = s3.requests.length;
    const { res, body } = await downloadZip(s3Server.url, carol, folder.id);
    expect(res.status).toBe(200);
    expect(Object.fromEntries(await readZip(body))).toEqual({
      "jan.pdf": uploads[0]!.sha,
      "2025/": "dir",
      "2025/feb.pdf": uploads[1]!.sha,
      "2025/feb (2).pdf": uploads[2]!.sha,
    });
    expect(s3.requests.slice(requestsBefore).filter((r) => r.startsWith("GET "))).toHaveLength(3);
    expect(fs.existsSync(`${s3Server.dataDir}/documents`)).toBe(false);
  });
});
