import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let entryScript: string;

beforeAll(async () => {
  server = await startTestServer();
  const html = fs.readFileSync(path.join(inject("clientDir"), "index.html"), "utf8");
  entryScript = /<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
});
afterAll(() => server.close());

/** node:http, not fetch: fetch would decode the body and hide what was sent. */
function getRaw(pathname: string, acceptEncoding: string | null) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const headers = acceptEncoding === null ? {} : { "accept-encoding": acceptEncoding };
    http
      .get(`${server.url}${pathname}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("hashed build assets", () => {
  it("are sent precompressed (brotli, else gzip, else as built) and cached for a year", async () => {
    const built = fs.readFileSync(path.join(inject("clientDir"), entryScript));

    const brotli = await getRaw(entryScript, "gzip, deflate, br");
    expect(brotli.status).toBe(200);
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotli.headers["content-type"]).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(brotli.body).equals(built)).toBe(true);
    expect(brotli.body.length).toBeLessThan(built.length / 2);

    const gzip = await getRaw(entryScript, "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(built)).toBe(true);

    const plain = await getRaw(entryScript, null);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(built)).toBe(true);
  });

  it("answer a missing asset with 404, not the app's page", async () => {
    const missing = await getRaw("/assets/no-such-chunk-0000.js", "br");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).not.toMatch(/html/);
    expect(missing.body.toString()).not.toContain('<div id="root">');
  });
});
