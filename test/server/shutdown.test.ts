// What production runs (the compiled server, `npm run build:server`) told to stop with SIGTERM, as an
// orchestrator does before replacing an instance: it takes no new connections, lets the uploads
// under way finish (one that does not is cut when SHUTDOWN_GRACE_SECONDS end), and exits 0.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildServer } from "../../scripts/build-server.mjs";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { ApiClient } from "../helpers/http.ts";
import { freePort } from "../helpers/server.ts";

// Shortened by SHUTDOWN_GRACE_SECONDS (30 by default): long enough for the slow upload's last two
// seconds, and the test waits 8 s for the cut instead of 30.
const GRACE_MS = 8_000;
const BOUNDARY = "----shutdown-test";

// Inside the project, so that the bundle's imports find node_modules.
fs.mkdirSync("test-output", { recursive: true });
const buildDir = fs.mkdtempSync(path.join(path.resolve("test-output"), "server-build-"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-shutdown-"));
let database: TestDatabase | undefined;
let child: ChildProcess;
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
let baseUrl = "";
let port = 0;

beforeAll(async () => {
  await buildServer(buildDir);
  // On Postgres the child gets a fresh database of its own; without one, the embedded database in DATA_DIR.
  database = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
  port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _ignored, ...env } = process.env;
  child = spawn(process.execPath, ["--enable-source-maps", path.join(buildDir, "server.js")], {
    env: {
      ...env,
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: "warn",
      SHUTDOWN_GRACE_SECONDS: String(GRACE_MS / 1000),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })));
  const deadline = Date.now() + 90_000;
  while (
    !(await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`the compiled server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error("the compiled server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await exit;
  }
  await database?.close();
  fs.rmSync(buildDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An upload whose body the test hands over piece by piece. */
function startUpload(cookie: string, fileBytes: number) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const req = http.request(`${baseUrl}/api/documents/upload`, {
    method: "POST",
    agent: false,
    headers: {
      Cookie: cookie,
      Origin: baseUrl,
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
      "Content-Length": String(head.length + fileBytes + tail.length),
    },
  });
  const answer = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", (err) => resolve({ error: err.message }));
    });
    req.on("error", (err) => resolve({ error: err.message }));
  });
  req.write(head);
  // A write to a connection the server has cut never completes: stop waiting when it closes.
  const written = (write: (done: () => void) => void) =>
    new Promise<void>((resolve) => {
      if (req.destroyed) return resolve();
      req.once("close", resolve);
      write(() => {
        req.off("close", resolve);
        resolve();
      });
    });
  return {
    answer,
    send: (bytes: number) => written((done) => req.write(randomBytes(bytes), done)),
    finish: () => written((done) => req.end(tail, done)),
  };
}

function connectionRefused(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
}

it("on SIGTERM refuses new connections, finishes the upload under way, cuts a stalled one when the grace ends, exits 0", async () => {
  const client = new ApiClient(baseUrl);
  const credentials = { username: "slow.uploader", password: "Maple-Invoice-314" };
  expect((await client.post("/api/auth/register", { ...credentials, email: "slow@client.test", name: "Slow Uploader" })).status).toBe(200);
  expect((await client.post("/api/auth/login", credentials)).status).toBe(200);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

  const slow = startUpload(cookie, 2 * 1024 * 1024);
  const stalled = startUpload(cookie, 1024 * 1024);
  await slow.send(256 * 1024);
  await stalled.send(64 * 1024);
  // Both requests are in the server's hands before it is told to stop.
  await new Promise((r) => setTimeout(r, 500));

  const signalledAt = Date.now();
  child.kill("SIGTERM");
  const refusedBy = Date.now() + 5_000;
  while (!(await connectionRefused())) {
    expect(Date.now(), "new connections still accepted 5 s after SIGTERM").toBeLessThan(refusedBy);
    await new Promise((r) => setTimeout(r, 50));
  }

  // The rest of the slow upload trickles in over the next two seconds, then it is answered.
  for (let sent = 256 * 1024; sent < 2 * 1024 * 1024; sent += 128 * 1024) {
    await slow.send(128 * 1024);
    await new Promise((r) => setTimeout(r, 130));
  }
  await slow.finish();
  const answer = await slow.answer;
  expect(answer, JSON.stringify(answer)).toMatchObject({ status: 201 });
  expect(JSON.parse((answer as { body: string }).body)).toMatchObject({ original_filename: "slow.bin", file_size: 2 * 1024 * 1024 });
  expect(child.exitCode, "exited before the stalled upload's grace ran out").toBeNull();

  const { code, signal, at } = await exit;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(at - signalledAt).toBeGreaterThanOrEqual(GRACE_MS - 1_000);
  expect(at - signalledAt).toBeLessThan(GRACE_MS + 8_000);
  expect(await stalled.answer).toHaveProperty("error");
}, 90_000);
