// Scorecard item 8: security headers on every kind of response, and safe download headers.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
/** The same app with a built client directory, to see static files. */
let withClient: http.Server;
let withClientUrl: string;
let clientDir: string;

beforeAll(async () => {
  server = await startTestServer();
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-client-"));
  fs.mkdirSync(path.join(clientDir, "assets"));
  fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><title>Portal</title>");
  fs.writeFileSync(path.join(clientDir, "assets", "app-1234.js"), "console.log(1)");
  fs.writeFileSync(path.join(clientDir, "favicon.svg"), "<svg/>");
  withClient = http.createServer(createApp(server.deps, { clientDir }));
  await new Promise<void>((r) => withClient.listen(0, "127.0.0.1", () => r()));
  withClientUrl = `http://127.0.0.1:${(withClient.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => withClient.close(() => r()));
  fs.rmSync(clientDir, { recursive: true, force: true });
  await server.close();
});

function expectSecurityHeaders(what: string, headers: Headers) {
  const csp = headers.get("content-security-policy") ?? "";
  expect(csp, what).toMatch(/default-src 'self'/);
  expect(csp, what).toMatch(/frame-ancestors 'none'/);
  expect(csp, what).toMatch(/script-src 'self'(;|$)/);
  expect(headers.get("referrer-policy"), what).toBe("no-referrer");
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
}

describe("every response carries the security headers", () => {
  it("pages, static files, API answers and errors", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    const anon = new ApiClient(server.url);
    const cases: [string, () => Promise<{ status: number; headers: Headers }>][] = [
      ["page /", () => fetch(`${withClientUrl}/`)],
      ["page /dashboard", () => fetch(`${withClientUrl}/dashboard`)],
      ["unknown page (404)", () => fetch(`${withClientUrl}/no/such/page`)],
      ["hashed asset", () => fetch(`${withClientUrl}/assets/app-1234.js`)],
      ["missing asset (404)", () => fetch(`${withClientUrl}/assets/missing.js`)],
      ["static file", () => fetch(`${withClientUrl}/favicon.svg`)],
      ["client not built (503)", () => fetch(`${server.url}/`)],
      ["health", () => anon.get("/api/health")],
      ["unknown API path (404)", () => anon.get("/api/nope")],
      ["not signed in (401)", () => anon.get("/api/auth/me")],
      ["admin only (403)", () => client.get("/api/admin/stats")],
      ["CSRF refusal (403)", () => client.post("/api/folders", { name: "x" }, { headers: { Origin: "https://evil.example" } })],
      ["invalid input (422)", () => anon.post("/api/auth/login", { username: "" })],
      ["broken JSON (400)", () => anon.request("POST", "/api/auth/login", { body: "{", headers: { "Content-Type": "application/json" } })],
      [
        "body too large (413)",
        () =>
          anon.request("POST", "/api/auth/login", {
            body: JSON.stringify({ username: "x".repeat(2_000_000) }),
            headers: { "Content-Type": "application/json" },
          }),
      ],
      ["tRPC query", () => anon.get("/trpc/site.links")],
      ["tRPC unknown procedure", () => anon.get("/trpc/nope.nope")],
      ["tRPC unauthorized", () => anon.get("/trpc/auth.me")],
    ];
    for (const [what, send] of cases) {
      const res = await send();
      expectSecurityHeaders(`${what} (${res.status})`, res.headers);
    }
  });
});

describe("downloads", () => {
  it("are attachments with filename*=, a sandboxing CSP and nosniff", async () => {
    const client = await loginClient(server.url, await createUser(server.db));
    const form = new FormData();
    form.append("file", new Blob(["<script>alert(1)</script>"], { type: "text/html" }), 'Ünïcode "report".html');
    const upload = await client.request("POST", "/api/documents/upload", { body: form });
    expect(upload.status).toBe(201);
    const res = await client.get(`/api/documents/${upload.body.id}/download`);
    expect(res.status).toBe(200);
    const disposition = res.headers.get("content-disposition") ?? "";
    expect(disposition).toMatch(/^attachment;/);
    expect(disposition).toMatch(/filename\*=UTF-8''/i);
    expect(res.headers.get("content-security-policy")).toMatch(/sandbox/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.text).toBe("<script>alert(1)</script>");
  });
});
