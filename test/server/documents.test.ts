import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { DeleteObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../server/domains/documents/schemas.ts";
import { createDocument } from "../../server/domains/documents/upload.ts";
import { LocalDirectoryStorage } from "../../server/storage/local-directory-storage.ts";
import { ObjectNotFoundError } from "../../server/storage/storage.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient, type ApiResponse } from "../helpers/http.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let alice: ApiClient;
let bob: ApiClient;
let aliceUser: UserFixture;

beforeAll(async () => {
  server = await startTestServer();
  aliceUser = await createUser(server.db);
  alice = await loginClient(server.url, aliceUser);
  bob = await loginClient(server.url, await createUser(server.db));
});
afterAll(() => server.close());

type Document = { id: string; original_filename: string; upload_date: string; file_size: number; folder_id: string | null; content_type: string };

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

function upload(
  client: ApiClient,
  content: Uint8Array,
  filename = "statement.pdf",
  opts: { type?: string; folderId?: string } = {},
): Promise<ApiResponse> {
  const form = new FormData();
  form.append("file", new Blob([content as Uint8Array<ArrayBuffer>], { type: opts.type ?? "application/octet-stream" }), filename);
  if (opts.folderId) form.append("folder_id", opts.folderId);
  return client.request("POST", "/api/documents/upload", { body: form });
}

const BOUNDARY = "----portal-test-boundary";

/** A multipart body written byte by byte, for what FormData would not send (raw header bytes, two files). */
function rawMultipart(parts: { disposition: string; type?: string; content: Uint8Array | string }[]): Uint8Array<ArrayBuffer> {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${part.disposition}\r\n`, "latin1"));
    if (part.type) chunks.push(Buffer.from(`Content-Type: ${part.type}\r\n`));
    chunks.push(Buffer.from("\r\n"), Buffer.from(part.content), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

function postRaw(client: ApiClient, body: Uint8Array<ArrayBuffer>, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return client.request("POST", "/api/documents/upload", { body, headers: { "Content-Type": contentType } });
}

/** Every file under the storage directory, temporary ones included. */
function storedFiles(): string[] {
  const root = path.join(server.dataDir, "documents");
  return fs.existsSync(root)
    ? fs.readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => fs.statSync(path.join(root, f)).isFile())
    : [];
}

async function documentRows(userId = aliceUser.id) {
  return server.db
    .selectFrom("documents")
    .select(["id", "storage_key", "sha256", "file_size", "original_filename"])
    .where("account_id", "=", userId)
    .execute();
}

/** Asserts that an operation added neither a row nor a file (not even a temporary one). */
async function expectNothingKept(operation: () => Promise<unknown>) {
  const filesBefore = storedFiles();
  const rowsBefore = (await documentRows()).length;
  await operation();
  expect((await documentRows()).length).toBe(rowsBefore);
  expect(storedFiles().sort()).toEqual(filesBefore.sort());
}

async function createFolder(client: ApiClient, name: string, parentId: string | null = null): Promise<string> {
  const res = await client.post("/api/folders", { name, parent_folder_id: parentId });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n", "latin1"), randomBytes(2000)]);

describe("upload, list, download, delete", () => {
  it("stores a file in the root and in a folder, lists each where it belongs, downloads identical bytes", async () => {
    const folderId = await createFolder(alice, "Statements");
    const rootFile = randomBytes(300_000);
    const folderFile = PDF;

    const inRoot = await upload(alice, rootFile, "ledger.bin");
    expect(inRoot.status, inRoot.text).toBe(201);
    expect(inRoot.body).toMatchObject({ original_filename: "ledger.bin", file_size: rootFile.length, folder_id: null });
    const inFolder = await upload(alice, folderFile, "march.pdf", { folderId, type: "application/pdf" });
    expect(inFolder.status, inFolder.text).toBe(201);
    expect(inFolder.body).toMatchObject({ original_filename: "march.pdf", folder_id: folderId, content_type: "application/pdf" });
    expect(Object.keys(inFolder.body).sort()).toEqual([
      "content_type",
      "file_size",
      "folder_id",
      "from_firm",
      "id",
      "original_filename",
      "upload_date",
      "uploaded_by_name",
    ]);

    const root = (await alice.get("/api/documents/root")).body as Document[];
    expect(root.map((d) => d.id)).toContain(inRoot.body.id);
    expect(root.map((d) => d.id)).not.toContain(inFolder.body.id);
    const folder = await alice.get(`/api/documents/folder/${folderId}`);
    expect(folder.status).toBe(200);
    expect(folder.body).toEqual([inFolder.body]);

    for (const [doc, bytes] of [
      [inRoot.body, rootFile],
      [inFolder.body, folderFile],
    ] as const) {
      const res = await fetch(`${server.url}/api/documents/${doc.id}/download`, { headers: { Cookie: cookieOf(alice) } });
      expect(res.status).toBe(200);
      const body = new Uint8Array(await res.arrayBuffer());
      expect(sha256(body)).toBe(sha256(bytes));
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
      expect(res.headers.get("content-type")).toBe(doc.content_type);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="${doc.original_filename}"; filename*=UTF-8''${doc.original_filename}`,
      );
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toMatch(/^private, no-store\b/);
      expect(res.headers.get("content-security-policy")).toBe("sandbox");
    }
    const rows = await documentRows();
    expect(rows.find((r) => r.id === inRoot.body.id)?.sha256).toBe(sha256(rootFile));
  });

  it("keeps text downloads uncompressed so Content-Length holds", async () => {
    const text = Buffer.from("Invoice line\n".repeat(5000));
    const doc = (await upload(alice, text, "notes.txt", { type: "text/plain" })).body as Document;
    const res = await fetch(`${server.url}/api/documents/${doc.id}/download`, {
      headers: { Cookie: cookieOf(alice), "Accept-Encoding": "gzip" },
    });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-length")).toBe(String(text.length));
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(text));
  });

  it("delete moves the document to the trash; deleting it for good removes the row and then the stored file", async () => {
    const doc = (await upload(alice, randomBytes(1000), "old.bin")).body as Document;
    const row = (await documentRows()).find((r) => r.id === doc.id)!;
    expect(storedFiles().some((f) => f.endsWith(row.storage_key))).toBe(true);

    const res = await alice.delete(`/api/documents/${doc.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await alice.get("/api/documents/root")).body.map((d: Document) => d.id)).not.toContain(doc.id);
    expect((await documentRows()).find((r) => r.id === doc.id)).toBeDefined();
    expect(storedFiles().some((f) => f.endsWith(row.storage_key))).toBe(true);
    expect((await alice.delete(`/api/documents/${doc.id}`)).status).toBe(404);
    expect((await alice.get(`/api/documents/${doc.id}/download`)).status).toBe(404);

    expect((await alice.delete(`/api/trash/${doc.id}`)).body).toEqual({ success: true });
    expect((await documentRows()).find((r) => r.id === doc.id)).toBeUndefined();
    expect(storedFiles().some((f) => f.endsWith(row.storage_key))).toBe(false);
  });

  it("answers 404 with a warning in the log when a document's stored file is missing", async () => {
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const doc = (await upload(alice, Buffer.from("lost content"), "lost.txt")).body as Document;
    const [row] = await server.db.selectFrom("documents").select("storage_key").where("id", "=", doc.id).execute();
    const file = storedFiles().find((f) => f.endsWith(row!.storage_key))!;
    fs.rmSync(path.join(server.dataDir, "documents", file));

    for (const [client, url] of [
      [alice, `/api/documents/${doc.id}/download`],
      [admin, `/api/admin/documents/${doc.id}/download`],
    ] as const) {
      const res = await client.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({ detail: "Document not found" });
    }
    const warnings = server.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40 && entry.document_id === doc.id);
    expect(warnings).toHaveLength(2);
    expect(warnings[0].msg).toMatch(/stored file is missing/);
  });

  it("accepts an empty file", async () => {
    const res = await upload(alice, new Uint8Array(0), "empty.txt", { type: "text/plain" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ file_size: 0, content_type: "text/plain" });
    const download = await alice.get(`/api/documents/${res.body.id}/download`);
    expect(download.status).toBe(200);
    expect(download.text).toBe("");
    expect((await documentRows()).find((r) => r.id === res.body.id)?.sha256).toBe(sha256(new Uint8Array(0)));
  });
});

describe("content type", () => {
  it("takes what the content shows over what the client declared", async () => {
    const pdfDeclaredAsText = await upload(alice, PDF, "a.txt", { type: "text/plain" });
    expect(pdfDeclaredAsText.body.content_type).toBe("application/pdf");
  });

  it("refuses a recognisable type the content does not match, keeps an unrecognisable one", async () => {
    const fakePng = await upload(alice, Buffer.from("not really an image"), "photo.png", { type: "image/png" });
    expect(fakePng.body.content_type).toBe("application/octet-stream");
    const csv = await upload(alice, Buffer.from("date,amount\n2024-01-02,12.50\n"), "books.csv", { type: "text/csv" });
    expect(csv.body.content_type).toBe("text/csv");
  });

  it("never stores a malformed declared type", async () => {
    const body = rawMultipart([{ disposition: 'form-data; name="file"; filename="x.bin"', type: "text/html\u00ff", content: "hi" }]);
    const res = await postRaw(alice, body);
    expect(res.status, res.text).toBe(201);
    expect(res.body.content_type).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
  });
});

describe("size limit", () => {
  it("accepts exactly 10 MB", async () => {
    const content = randomBytes(MAX_UPLOAD_BYTES);
    const res = await upload(alice, content, "exactly-10mb.bin");
    expect(res.status, res.text).toBe(201);
    expect(res.body.file_size).toBe(10 * 1024 * 1024);
    expect((await documentRows()).find((r) => r.id === res.body.id)?.sha256).toBe(sha256(content));
  });

  it("refuses 10 MB + 1 byte with 413 and keeps nothing", async () => {
    await expectNothingKept(async () => {
      const res = await upload(alice, randomBytes(MAX_UPLOAD_BYTES + 1), "too-big.bin");
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ detail: "File is larger than 10MB" });
    });
  });

  it("refuses a body announced as far too large before reading it", async () => {
    await expectNothingKept(async () => {
      const res = await rawRequest({ cookie: cookieOf(alice), contentLength: 50 * 1024 * 1024, send: Buffer.alloc(0) });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toEqual({ detail: "File is larger than 10MB" });
    });
  });

  it("stops reading a large upload as soon as it passes the limit", async () => {
    await expectNothingKept(async () => {
      // Without a Content-Length the server only learns the size by reading; 30 MB would follow.
      const res = await rawRequest({ cookie: cookieOf(alice), chunked: true, send: oversizedMultipart(30 * 1024 * 1024) });
      expect(res.status).toBe(413);
      expect(res.bytesAcceptedBeforeAnswer).toBeLessThan(20 * 1024 * 1024);
    });
  });
});

describe("malformed uploads", () => {
  it("refuses two files in one request", async () => {
    await expectNothingKept(async () => {
      const form = new FormData();
      form.append("file", new Blob(["one"]), "one.txt");
      form.append("file", new Blob(["two"]), "two.txt");
      const res = await alice.request("POST", "/api/documents/upload", { body: form });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: "Upload exactly one file per request" });
    });
  });

  it("refuses a request without a file", async () => {
    await expectNothingKept(async () => {
      const form = new FormData();
      form.append("folder_id", "");
      const res = await alice.request("POST", "/api/documents/upload", { body: form });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: "No file was uploaded" });
      // What a browser sends when no file was chosen: an empty part without a name.
      const noChoice = await postRaw(
        alice,
        rawMultipart([{ disposition: 'form-data; name="file"; filename=""', type: "application/octet-stream", content: "" }]),
      );
      expect(noChoice.status).toBe(422);
      expect(noChoice.body.detail).toBe("No file was uploaded");
    });
  });

  it("refuses a file under another field name, a JSON body, and a broken multipart body", async () => {
    await expectNothingKept(async () => {
      const form = new FormData();
      form.append("document", new Blob(["x"]), "x.txt");
      const wrongField = await alice.request("POST", "/api/documents/upload", { body: form });
      expect(wrongField.status).toBe(422);
      expect(wrongField.body.detail).toBe('Send the file in the field "file"');
      const json = await alice.post("/api/documents/upload", { file: "x" });
      expect(json.status).toBe(422);
      expect(json.body.detail).toMatch(/multipart\/form-data/);
      const truncated = rawMultipart([{ disposition: 'form-data; name="file"; filename="x.txt"', content: "abc" }]).subarray(0, 90);
      const broken = await postRaw(alice, truncated);
      expect(broken.status).toBe(422);
    });
  });

  it("refuses a malformed folder id and removes the stored file", async () => {
    await expectNothingKept(async () => {
      const res = await upload(alice, randomBytes(5000), "a.bin", { folderId: "not-a-uuid" });
      expect(res.status).toBe(422);
    });
  });

  it("refuses an over-long field before the file part and never stores the file that follows", async () => {
    await expectNothingKept(async () => {
      const body = rawMultipart([
        { disposition: 'form-data; name="folder_id"', content: "x".repeat(2000) },
        { disposition: 'form-data; name="file"; filename="after.txt"', type: "text/plain", content: randomBytes(20_000).toString("hex") },
      ]);
      const res = await postRaw(alice, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: 'The form field "folder_id" is too long' });
      // The parser had the whole body already: a file part handled after the refusal would be
      // written a moment after the answer, so give it that moment before looking.
      await new Promise((r) => setTimeout(r, 300));
    });
  });

  it("keeps nothing when the client goes away mid-upload", async () => {
    await expectNothingKept(async () => {
      const tmpDir = path.join(server.dataDir, "documents", "tmp");
      const req = http.request(`${server.url}/api/documents/upload`, {
        method: "POST",
        headers: {
          Cookie: cookieOf(alice),
          Origin: server.url,
          "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
          "Content-Length": String(5 * 1024 * 1024),
        },
      });
      req.on("error", () => {});
      req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n\r\n`);
      req.write(randomBytes(1024 * 1024));
      // The server is writing the file when the client disappears.
      await waitFor(() => fs.existsSync(tmpDir) && fs.readdirSync(tmpDir).length > 0);
      req.destroy();
      await waitFor(() => fs.readdirSync(tmpDir).length === 0);
    });
  });

  it("removes the stored content when recording the row fails", async () => {
    const ctx = createContextInner({ deps: server.deps });
    const key = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    await server.deps.storage.put(key, Readable.from([Buffer.from("content")]));
    expect(storedFiles().some((f) => f.endsWith(key))).toBe(true);
    // A negative size breaks the table's check constraint: the insert fails after the content is stored.
    const file = { key, size: -1, sha256: sha256(Buffer.from("content")), filename: "x.txt", declaredType: "text/plain" };
    const asAlice = {
      ...ctx,
      user: aliceUser,
      session: { id: "", userId: aliceUser.id, kind: "client" as const, expiresAt: new Date(), lastUsedAt: new Date() },
      account: { id: aliceUser.id, name: aliceUser.username!, kind: "individual" as const, role: "owner" as const },
    };
    await expect(createDocument(asAlice, { folder_id: null, file })).rejects.toThrow();
    expect(storedFiles().some((f) => f.endsWith(key))).toBe(false);
  });
});

describe("filenames", () => {
  async function roundTrip(res: ApiResponse) {
    expect(res.status, res.text).toBe(201);
    const doc = res.body as Document;
    const download = await fetch(`${server.url}/api/documents/${doc.id}/download`, { headers: { Cookie: cookieOf(alice) } });
    const disposition = download.headers.get("content-disposition")!;
    await download.arrayBuffer();
    const encoded = /filename\*=UTF-8''([^;]+)$/.exec(disposition)?.[1];
    const fallback = /filename="([^"]*)"/.exec(disposition)?.[1];
    expect(decodeURIComponent(encoded!)).toBe(doc.original_filename);
    expect(fallback).toMatch(/^[\x20-\x7e]*$/);
    expect(disposition).toMatch(/^attachment; /);
    return { doc, disposition, fallback };
  }

  it("drops path parts", async () => {
    const { doc } = await roundTrip(await upload(alice, Buffer.from("x"), "../../etc/passwd"));
    expect(doc.original_filename).toBe("passwd");
    const windows = await roundTrip(
      await postRaw(alice, rawMultipart([{ disposition: 'form-data; name="file"; filename="..\\\\..\\\\boot.ini"', content: "x" }])),
    );
    expect(windows.doc.original_filename).toBe("boot.ini");
    const rows = await documentRows();
    // The storage key is ours, never the user's name.
    for (const row of rows) expect(row.storage_key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("strips control characters and direction overrides", async () => {
    const encoded = await roundTrip(
      await postRaw(
        alice,
        rawMultipart([{ disposition: "form-data; name=\"file\"; filename*=UTF-8''tax%00%01re%1Bturn%7F%0D%0A%E2%80%AEfdp.exe", content: "x" }]),
      ),
    );
    expect(encoded.doc.original_filename).toBe("taxreturnfdp.exe");
    // Direction marks (LRM, RLM, ALM), zero-width space, non-joiner, joiner, word joiner, BOM.
    const invisible = ["\u200E", "\u200F", "\u061C", "\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u2028"];
    const marked = await roundTrip(await upload(alice, Buffer.from("x"), `W${invisible.join("")}2.pdf`));
    expect(marked.doc.original_filename).toBe("W2.pdf");
    const tab = await roundTrip(
      await postRaw(alice, rawMultipart([{ disposition: 'form-data; name="file"; filename="tax\treturn.pdf"', content: "x" }])),
    );
    expect(tab.doc.original_filename).toBe("taxreturn.pdf");
    // Raw control bytes in a part header are not HTTP: refused, nothing kept.
    await expectNothingKept(async () => {
      const res = await postRaw(alice, rawMultipart([{ disposition: 'form-data; name="file"; filename="tax\x01re\x1bturn.pdf"', content: "x" }]));
      expect(res.status).toBe(422);
    });
  });

  it("shortens a 300-character name to 255, keeping the extension", async () => {
    const { doc } = await roundTrip(await upload(alice, Buffer.from("x"), `${"a".repeat(296)}.pdf`));
    expect(doc.original_filename).toHaveLength(255);
    expect(doc.original_filename).toBe(`${"a".repeat(251)}.pdf`);
  });

  it("keeps a non-ASCII name and sends it RFC 5987-encoded", async () => {
    const { doc, disposition, fallback } = await roundTrip(await upload(alice, Buffer.from("x"), "café 报告.pdf"));
    expect(doc.original_filename).toBe("café 报告.pdf");
    expect(disposition).toContain("filename*=UTF-8''caf%C3%A9%20%E6%8A%A5%E5%91%8A.pdf");
    expect(fallback).toBe("caf_ __.pdf");
    const listed = (await alice.get("/api/documents/root")).body as Document[];
    expect(listed.find((d) => d.id === doc.id)?.original_filename).toBe("café 报告.pdf");
  });

  it("keeps markup in a name as plain text and quotes it safely", async () => {
    const name = `<img src=x onerror="alert('x')">.pdf`;
    const { doc, disposition } = await roundTrip(
      await postRaw(alice, rawMultipart([{ disposition: `form-data; name="file"; filename*=UTF-8''${rfc5987(name)}`, content: "x" }])),
    );
    expect(doc.original_filename).toBe(name);
    expect(disposition).toBe(
      `attachment; filename="<img src=x onerror=_alert('x')_>.pdf"; filename*=UTF-8''%3Cimg%20src%3Dx%20onerror%3D%22alert%28%27x%27%29%22%3E.pdf`,
    );
    // The slash of a closing tag is a path separator: only the last part is kept.
    const script = await roundTrip(await upload(alice, Buffer.from("x"), "<script>alert(1)</script>.pdf"));
    expect(script.doc.original_filename).toBe("script>.pdf");
  });
});

describe("ownership", () => {
  it("hides one client's folders and documents from another exactly like missing ones", async () => {
    const folderId = await createFolder(alice, "Alice only");
    const doc = (await upload(alice, Buffer.from("secret"), "secret.txt", { folderId })).body as Document;
    const rootDoc = (await upload(alice, Buffer.from("secret"), "root-secret.txt")).body as Document;
    const missingId = crypto.randomUUID();

    expect((await bob.get("/api/documents/root")).body.map((d: Document) => d.id)).not.toContain(rootDoc.id);
    const list = await bob.get(`/api/documents/folder/${folderId}`);
    expect(list.status).toBe(404);
    expect(list.body).toEqual((await bob.get(`/api/documents/folder/${missingId}`)).body);

    const download = await bob.get(`/api/documents/${doc.id}/download`);
    expect(download.status).toBe(404);
    expect(download.body).toEqual((await bob.get(`/api/documents/${missingId}/download`)).body);
    expect(download.body).toEqual({ detail: "Document not found" });

    const del = await bob.delete(`/api/documents/${doc.id}`);
    expect(del.status).toBe(404);
    expect(del.body).toEqual((await bob.delete(`/api/documents/${missingId}`)).body);

    await expectNothingKept(async () => {
      const intoForeign = await upload(bob, randomBytes(2000), "planted.bin", { folderId });
      expect(intoForeign.status).toBe(404);
      expect(intoForeign.body).toEqual({ detail: "Folder not found" });
    });
    const bobsRows = await server.db.selectFrom("documents").select("id").where("folder_id", "=", folderId).execute();
    expect(bobsRows.map((r) => r.id)).toEqual([doc.id]);

    // Alice still has everything.
    expect((await alice.get(`/api/documents/${doc.id}/download`)).text).toBe("secret");
  });

  it("answers 401 without a session, before reading an upload", async () => {
    const anon = new ApiClient(server.url);
    const doc = (await upload(alice, Buffer.from("x"), "x.txt")).body as Document;
    expect((await anon.get("/api/documents/root")).status).toBe(401);
    expect((await anon.get(`/api/documents/folder/${crypto.randomUUID()}`)).status).toBe(401);
    expect((await anon.get(`/api/documents/${doc.id}/download`)).status).toBe(401);
    expect((await anon.delete(`/api/documents/${doc.id}`)).status).toBe(401);
    await expectNothingKept(async () => {
      const res = await upload(anon, randomBytes(3 * 1024 * 1024), "anon.bin");
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: "Not authenticated" });
    });
  });

  it("refuses a cross-site upload", async () => {
    const form = new FormData();
    form.append("file", new Blob(["x"]), "x.txt");
    const res = await alice.request("POST", "/api/documents/upload", { body: form, headers: { Origin: "https://evil.example" } });
    expect(res.status).toBe(403);
  });
});

describe("storage", () => {
  it("removes orphaned temporary files at start and keeps stored objects", async () => {
    const root = fs.mkdtempSync(path.join(server.dataDir, "restart-"));
    const before = new LocalDirectoryStorage(root);
    const key = "5a0c9d1e-2b3f-4a6c-8d7e-9f0a1b2c3d4e";
    await before.put(key, Readable.from([Buffer.from("kept")]));
    const orphan = path.join(root, "tmp", "crashed-upload.tmp");
    fs.writeFileSync(orphan, "half a file");

    const after = new LocalDirectoryStorage(root);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(Buffer.concat(await (await after.get(key)).toArray()).toString()).toBe("kept");
    await expect(after.get("0000000000000000-missing")).rejects.toThrow(ObjectNotFoundError);
  });

  it("refuses a key that could name a path", async () => {
    const storage = new LocalDirectoryStorage(fs.mkdtempSync(path.join(server.dataDir, "keys-")));
    await expect(storage.get("../../../../etc/passwd")).rejects.toThrow(/Invalid storage key/);
    await expect(storage.put("../escape-attempt-0000", Readable.from([Buffer.from("x")]))).rejects.toThrow(/Invalid storage key/);
  });
});

describe("on S3 storage", () => {
  let s3: TestS3;
  let s3Server: TestServer;
  let carol: ApiClient;
  let carolUser: UserFixture;

  beforeAll(async () => {
    s3 = await startTestS3();
    s3Server = await startTestServer({ env: s3.env });
    carolUser = await createUser(s3Server.db);
    carol = await loginClient(s3Server.url, carolUser);
  });
  afterAll(async () => {
    await s3Server?.close();
    await s3?.close();
  });

  async function bucketKeys(): Promise<string[]> {
    const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (page.Contents ?? []).map((o) => o.Key!).sort();
  }
  const carolRows = () => s3Server.db.selectFrom("documents").select(["id", "storage_key"]).where("account_id", "=", carolUser.id).execute();
  async function expectNothingKeptInBucket(operation: () => Promise<unknown>) {
    const keysBefore = await bucketKeys();
    const rowsBefore = (await carolRows()).length;
    await operation();
    expect((await carolRows()).length).toBe(rowsBefore);
    expect(await bucketKeys()).toEqual(keysBefore);
  }

  it("streams uploads into the bucket (exactly 10 MB in parts) and back out identical, and deletes the object after the row (from the trash)", async () => {
    for (const content of [PDF, randomBytes(MAX_UPLOAD_BYTES)]) {
      const res = await upload(carol, content, "statement.pdf");
      expect(res.status, res.text).toBe(201);
      const [row] = await s3Server.db.selectFrom("documents").select(["storage_key", "sha256"]).where("id", "=", res.body.id).execute();
      expect(row!.sha256).toBe(sha256(content));
      expect(await bucketKeys()).toContain(row!.storage_key);

      const download = await fetch(`${s3Server.url}/api/documents/${res.body.id}/download`, { headers: { Cookie: cookieOf(carol) } });
      expect(download.status).toBe(200);
      expect(download.headers.get("content-length")).toBe(String(content.length));
      expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(content));

      expect((await carol.delete(`/api/documents/${res.body.id}`)).status).toBe(200);
      expect(await bucketKeys()).toContain(row!.storage_key);
      expect((await carol.delete(`/api/trash/${res.body.id}`)).status).toBe(200);
      expect(await bucketKeys()).not.toContain(row!.storage_key);
    }
    // Nothing went to the local disk.
    expect(fs.existsSync(path.join(s3Server.dataDir, "documents"))).toBe(false);
  });

  it("refuses 10 MB + 1 byte with 413 and keeps no object", async () => {
    await expectNothingKeptInBucket(async () => {
      const res = await upload(carol, randomBytes(MAX_UPLOAD_BYTES + 1), "too-big.bin");
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ detail: "File is larger than 10MB" });
    });
  });

  it("keeps no object when the client goes away while parts are going up", async () => {
    await expectNothingKeptInBucket(async () => {
      const before = s3.requests.length;
      const req = http.request(`${s3Server.url}/api/documents/upload`, {
        method: "POST",
        headers: {
          Cookie: cookieOf(carol),
          Origin: s3Server.url,
          "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
          "Content-Length": String(9 * 1024 * 1024),
        },
      });
      req.on("error", () => {});
      req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n\r\n`);
      req.write(randomBytes(6 * 1024 * 1024));
      // More than one part arrived: the server has started a multipart upload.
      await waitFor(() => s3.requests.slice(before).some((r) => r.startsWith("POST ") && r.includes("?uploads")), 10_000);
      const started = s3.requests.length;
      req.destroy();
      // The refused upload ends by removing its key, whatever reached the bucket.
      await waitFor(() => s3.requests.slice(started).some((r) => r.startsWith("DELETE ")), 10_000);
    });
  });

  it("removes the object when recording the row fails", async () => {
    const ctx = createContextInner({ deps: s3Server.deps });
    const key = "1f2e3d4c-5b6a-4978-8796-a5b4c3d2e1f0";
    await s3Server.deps.storage.put(key, Readable.from([Buffer.from("content")]));
    expect(await bucketKeys()).toContain(key);
    const file = { key, size: -1, sha256: sha256(Buffer.from("content")), filename: "x.txt", declaredType: "text/plain" };
    const asCarol = {
      ...ctx,
      user: carolUser,
      session: { id: "", userId: carolUser.id, kind: "client" as const, expiresAt: new Date(), lastUsedAt: new Date() },
      account: { id: carolUser.id, name: carolUser.username!, kind: "individual" as const, role: "owner" as const },
    };
    await expect(createDocument(asCarol, { folder_id: null, file })).rejects.toThrow();
    expect(await bucketKeys()).not.toContain(key);
  });

  it("answers 404 when a document's object is gone from the bucket", async () => {
    const doc = (await upload(carol, Buffer.from("lost content"), "lost.txt")).body as Document;
    const [row] = await s3Server.db.selectFrom("documents").select("storage_key").where("id", "=", doc.id).execute();
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: row!.storage_key }));
    const res = await carol.get(`/api/documents/${doc.id}/download`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Document not found" });
  });
});

function cookieOf(client: ApiClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function oversizedMultipart(fileBytes: number): Buffer {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\n\r\n`);
  return Buffer.concat([head, Buffer.alloc(fileBytes, 7)]);
}

/**
 * A raw HTTP upload that keeps writing until the server answers, and reports how much of the body
 * it had handed over by then (what the server was willing to take in).
 */
function rawRequest(opts: {
  cookie: string;
  send: Uint8Array;
  contentLength?: number;
  chunked?: boolean;
}): Promise<{ status: number; body: string; bytesAcceptedBeforeAnswer: number }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      Cookie: opts.cookie,
      Origin: server.url,
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
    };
    if (opts.contentLength !== undefined) headers["Content-Length"] = String(opts.contentLength);
    const req = http.request(`${server.url}/api/documents/upload`, { method: "POST", headers });
    let written = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const accepted = written;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, bytesAcceptedBeforeAnswer: accepted }));
    });
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    req.flushHeaders();
    void (async () => {
      const chunkBytes = 64 * 1024;
      for (let offset = 0; offset < opts.send.length; offset += chunkBytes) {
        if (answered || req.destroyed) return;
        const chunk = opts.send.subarray(offset, offset + chunkBytes);
        written += chunk.length;
        if (!req.write(chunk)) await writable(req);
      }
      if (!answered && opts.chunked) req.end();
    })();
  });
}

/** Resolves when the request can take more data, or will never need to (answered or closed). */
function writable(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off("drain", done).off("response", done).off("close", done);
      resolve();
    };
    req.on("drain", done).on("response", done).on("close", done);
  });
}

function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
