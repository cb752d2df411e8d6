// Preview (issue 17): GET /api/documents/:id/preview answers the file inline for the types a browser
// shows safely, under nosniff and a sandbox CSP, and 415 for every other type; ownership as for a
// download. A real Chromium opens the previews with the headers the server sends.
import { randomBytes, randomUUID } from "node:crypto";
import zlib from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_CSP } from "../../server/rest/download.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
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

type Document = { id: string; original_filename: string; content_type: string; file_size: number };

const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

async function upload(client: ApiClient, content: Uint8Array, filename: string, type = "application/octet-stream"): Promise<Document> {
  const form = new FormData();
  form.append("file", new Blob([content as Uint8Array<ArrayBuffer>], { type }), filename);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A real 4x3 PNG (grey), which Chromium decodes. */
function png(): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(3, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.alloc(3 * (1 + 4 * 3), 160);
  for (let y = 0; y < 3; y++) rows[y * 13] = 0;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A one-page PDF that says "Hello PDF". */
function pdf(): Buffer {
  const content = "BT /F1 24 Tf 20 100 Td (Hello PDF) Tj ET";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets = objects.map((object, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from("JFIF\0", "latin1"), randomBytes(200)]);
const GIF = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.from([0x3b])]);
const WEBP = (() => {
  const body = Buffer.concat([Buffer.from("WEBPVP8 ", "latin1"), randomBytes(40)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from("RIFF", "latin1"), size, body]);
})();
/** Text that a browser sniffing for HTML would run as a page. */
const HTML_AS_TEXT = Buffer.from('<!doctype html><title>t</title><script>document.title = "ran"</script>\nÜnïcode line\n');

describe("GET /api/documents/:id/preview", () => {
  it("answers each previewable type inline, as its stored type, with nosniff, a sandbox CSP and no caching", async () => {
    const files: [Buffer, string, string, string][] = [
      [png(), "scan.png", "image/png", "image/png"],
      [JPEG, "photo.jpg", "image/jpeg", "image/jpeg"],
      [GIF, "anim.gif", "image/gif", "image/gif"],
      [WEBP, "pic.webp", "image/webp", "image/webp"],
      [pdf(), "return 2024.pdf", "application/pdf", "application/pdf"],
      [HTML_AS_TEXT, "notes.txt", "text/plain", "text/plain; charset=utf-8"],
    ];
    for (const [bytes, name, declared, contentType] of files) {
      const doc = await upload(alice, bytes, name, declared);
      const res = await fetch(`${server.url}/api/documents/${doc.id}/preview`, { headers: { Cookie: cookieOf(alice) } });
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      expect(res.headers.get("content-type")).toBe(contentType);
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
      expect(res.headers.get("content-disposition")).toBe(`inline; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe(PREVIEW_CSP);
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
      expect(res.headers.get("cache-control")).toMatch(/^private, no-store\b/);
    }
  });

  it("answers 415 with a detail for every other type, and for an HTML or SVG file whatever it claims", async () => {
    const others: [Uint8Array, string, string][] = [
      [randomBytes(300), "ledger.bin", "application/octet-stream"],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "logo.svg", "image/svg+xml"],
      [Buffer.from("<html><script>alert(1)</script></html>"), "page.html", "text/html"],
      [Buffer.from("a,b\n1,2\n"), "sheet.csv", "text/csv"],
      [Buffer.concat([Buffer.from("PK\u0003\u0004", "latin1"), randomBytes(100)]), "archive.zip", "application/zip"],
    ];
    for (const [bytes, name, declared] of others) {
      const doc = await upload(alice, bytes, name, declared);
      expect(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain"]).not.toContain(doc.content_type);
      const res = await alice.get(`/api/documents/${doc.id}/preview`);
      expect({ name, type: doc.content_type, status: res.status, body: res.body }).toEqual({
        name,
        type: doc.content_type,
        status: 415,
        body: { detail: "No preview for this type of file" },
      });
      expect(res.headers.get("content-disposition")).toBeNull();
      // The download is still there.
      expect((await alice.get(`/api/documents/${doc.id}/download`)).status).toBe(200);
    }
  });

  it("answers another client's document, of any type, exactly like a missing one (404), and 401 without a session", async () => {
    const previewable = await upload(alice, png(), "mine.png", "image/png");
    const other = await upload(alice, randomBytes(100), "mine.bin");
    const missing = await bob.get(`/api/documents/${randomUUID()}/preview`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: "Document not found" });
    for (const doc of [previewable, other]) {
      const foreign = await bob.get(`/api/documents/${doc.id}/preview`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(missing.body);
    }
    const anonymous = await fetch(`${server.url}/api/documents/${previewable.id}/preview`);
    expect(anonymous.status).toBe(401);
  });

  it("lets the admin preview anyone's live document, with the same rules", async () => {
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    const image = await upload(alice, png(), "for-admin.png", "image/png");
    const other = await upload(alice, randomBytes(100), "for-admin.bin");
    const res = await fetch(`${server.url}/api/admin/documents/${image.id}/preview`, { headers: { Cookie: cookieOf(admin) } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-security-policy")).toBe(PREVIEW_CSP);
    expect((await admin.get(`/api/admin/documents/${other.id}/preview`)).body).toEqual({ detail: "No preview for this type of file" });
    expect((await admin.get(`/api/admin/documents/${randomUUID()}/preview`)).status).toBe(404);
    // A client is no admin.
    expect((await alice.get(`/api/admin/documents/${image.id}/preview`)).status).toBe(403);
    expect((await alice.delete(`/api/documents/${image.id}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/documents/${image.id}/preview`)).status).toBe(404);
  });
});

describe("previews in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  async function open(doc: Document) {
    const context = await browser.newContext();
    const [name, value] = cookieOf(alice).split(";")[0]!.split("=") as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      // The browser asks for /favicon.ico beside any page; the test client build has none.
      if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) errors.push(`${message.text()} ${message.location().url}`);
    });
    const response = await page.goto(`${server.url}/api/documents/${doc.id}/preview`);
    return { page, context, response, errors };
  }

  it("shows an image, shows text as text without running it, and opens a PDF in the browser's viewer", async () => {
    const image = await open(await upload(alice, png(), "seen.png", "image/png"));
    expect(image.response?.status()).toBe(200);
    await expect.poll(() => image.page.evaluate(() => document.querySelector("img")?.naturalWidth ?? 0)).toBe(4);
    expect(image.errors, image.errors.join("\n")).toEqual([]);
    await image.context.close();

    const text = await open(await upload(alice, HTML_AS_TEXT, "page-as-text.txt", "text/plain"));
    expect(await text.page.evaluate(() => document.querySelector("pre")?.textContent)).toBe(HTML_AS_TEXT.toString("utf8"));
    expect(await text.page.evaluate(() => document.title)).not.toBe("ran");
    expect(await text.page.evaluate(() => document.querySelectorAll("script").length)).toBe(0);
    await text.context.close();

    // Chromium shows a PDF in its viewer extension, in a frame of its own; a blocked one has none.
    const viewer = await open(await upload(alice, pdf(), "viewer.pdf", "application/pdf"));
    expect(viewer.response?.status()).toBe(200);
    await expect.poll(() => viewer.page.frames().some((frame) => frame.url().startsWith("chrome-extension://")), { timeout: 10_000 }).toBe(true);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});
