// The fresh-clone path: no DATABASE_URL, the embedded database under DATA_DIR, the admin created
// by the project's script, the server started as `npm start` starts it.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ApiClient } from "../helpers/http.ts";
import { freePort } from "../helpers/server.ts";

const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-embedded-"));
const { DATABASE_URL: _ignored, ...envWithoutDatabase } = process.env;
const env = { ...envWithoutDatabase, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
let server: ChildProcess | undefined;
let baseUrl = "";

beforeAll(async () => {
  const created = await run(
    tsx,
    ["scripts/create-admin.ts", "--username", "firm.admin", "--email", "admin@firm.test", "--password", "Granite-Ledger-Owl-9"],
    { env },
  );
  expect(created.stdout).toContain("Admin firm.admin created");

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(tsx, ["server/index.ts"], {
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: baseUrl },
    stdio: "ignore",
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error("embedded server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("keeps its data under DATA_DIR and serves register, login and the admin login", async () => {
  expect(fs.existsSync(path.join(dataDir, "pgdata"))).toBe(true);
  const client = new ApiClient(baseUrl);
  const register = await client.post("/api/auth/register", {
    username: "first.client",
    email: "first@client.test",
    name: "First Client",
    password: "Maple-Invoice-314",
  });
  expect(register.status).toBe(200);
  const login = await client.post("/api/auth/login", { username: "first.client", password: "Maple-Invoice-314" });
  expect(login.status).toBe(200);
  expect((await client.get("/api/auth/me")).body.name).toBe("First Client");

  // The first admin sets up two-factor sign-in at the first sign-in, before any admin data.
  const adminBrowser = new ApiClient(baseUrl);
  const admin = await adminBrowser.post("/api/admin/login", { username: "firm.admin", password: "Granite-Ledger-Owl-9" });
  expect(admin.status).toBe(200);
  expect(admin.body).toEqual({ two_factor_setup_required: true, challenge: expect.any(String) });
  const setup = await adminBrowser.post("/api/auth/login/2fa/setup", { challenge: admin.body.challenge });
  const code = generateHOTP(decodeBase32IgnorePadding(setup.body.secret), BigInt(Math.floor(Date.now() / 30_000)), 6);
  const enabled = await adminBrowser.post("/api/auth/login/2fa/enable", { challenge: admin.body.challenge, code });
  expect(enabled.status).toBe(200);
  expect(enabled.body.user.is_admin).toBe(true);
  expect((await adminBrowser.get("/api/admin/stats")).status).toBe(200);
}, 60_000);
