// Where the app spends a request. Saturates one endpoint of the app and of its stack's floor
// (floor-server.ts) and prints the CPU time each process spent per request (from /proc: unlike
// req/s, barely moved by other work on the machine); with --profile, also runs the app under a
// CPU profile and prints the functions with the most self time and the packages they belong to.
//   npx tsx scripts/bench/profile-api.ts [path] [seconds] [--profile]     e.g. /api/auth/me 15
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hashPassword } from "../../server/auth/password.ts";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { insertUser } from "../../server/routers/auth/queries.ts";
import { createBenchDatabase } from "./database.ts";
import { saturate } from "./load.ts";
import { startChild } from "./processes.ts";

const [target = "/api/auth/me", secondsArg = "15"] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const seconds = Number(secondsArg);
const profiling = process.argv.includes("--profile");
const floor = target.startsWith("/trpc") ? "trpc" : "express";
const floorPath = floor === "express" ? target.replace("/api/auth", "") : target;

/** User plus system CPU time of a process so far, in microseconds (clock ticks are 10 ms). */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const work = fs.mkdtempSync(path.join(os.tmpdir(), "portal-profile-"));
const profileDir = path.join(work, "profile");
const database = await createBenchDatabase(base);
try {
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: "memory://", logger: createLogger("silent") });
  const password = `Bench-${randomBytes(12).toString("hex")}`;
  await insertUser(handle.db, {
    username: "profile-client",
    email: "p@example.com",
    name: "Profile",
    password_hash: await hashPassword(password),
    is_admin: false,
  });
  await handle.close();
  if (profiling) process.env.BENCH_APP_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
  const port = 20000 + Math.floor(Math.random() * 20000);
  const url = `http://127.0.0.1:${port}`;
  const app = await startChild(
    "app-server.ts",
    {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: database.url,
      DATA_DIR: path.join(work, "data"),
      LOG_LEVEL: "info",
    },
    path.join(work, "app.log"),
  );
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "profile-client", password, return_token: true }),
  });
  const { session_token } = (await login.json()) as { session_token: string };
  const headers: Record<string, string> = { cookie: `session=${session_token}`, ...(process.env.AE ? { "accept-encoding": process.env.AE } : {}) };
  const floorServer = await startChild("floor-server.ts", { DATABASE_URL: database.url, FLOOR: floor }, path.join(work, "floor.log"));
  const measure = async (name: string, pid: number, endpoint: string) => {
    await saturate({ url: endpoint, connections: 50, seconds: 2, headers });
    const before = cpuMicros(pid);
    const run = await saturate({ url: endpoint, connections: 50, seconds, headers });
    const perRequest = (cpuMicros(pid) - before) / run.requests;
    process.stdout.write(
      `${name.padEnd(28)} ${String(Math.round(run.rps)).padStart(6)} req/s ${perRequest.toFixed(0).padStart(6)} us CPU/request, ${run.failures} failed\n`,
    );
    return perRequest;
  };
  const appCost = await measure(`app ${target}`, app.pid, url + target);
  const floorCost = await measure(`${floor} floor ${floorPath}`, floorServer.pid, floorServer.url + floorPath);
  process.stdout.write(
    `app/floor CPU per request: ${(appCost / floorCost).toFixed(2)}x (throughput ratio at equal CPU: ${(floorCost / appCost).toFixed(2)}x)\n`,
  );
  await Promise.all([app.stop(), floorServer.stop()]);
  if (profiling) printProfile(path.join(profileDir, fs.readdirSync(profileDir)[0]!));
} finally {
  await database.drop();
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

function printProfile(file: string): void {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => /\(idle\)|\(program\)/.test(byId.get(id)!.callFrame.functionName)).reduce((a, [, t]) => a + t, 0);
  const where = (n: ProfileNode) => {
    const u = n.callFrame.url.replace(/^file:\/\//, "");
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1];
    return pkg ?? (u.includes("/server/") ? `app ${u.slice(u.indexOf("/server/") + 1)}` : u.startsWith("node:") ? "node" : u || "(native)");
  };
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    const key = `${n.callFrame.functionName || "(anonymous)"} ${where(n)}:${n.callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + t);
    byPackage.set(where(n), (byPackage.get(where(n)) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / (total - idle)).toFixed(1)}%`.padStart(6);
  process.stdout.write(`busy ${(((total - idle) / total) * 100).toFixed(0)}% of ${(total / 1e6).toFixed(1)} s\n\nself time by package:\n`);
  for (const [k, t] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25)) process.stdout.write(`${pct(t)} ${k}\n`);
  process.stdout.write("\nself time by function:\n");
  for (const [k, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) process.stdout.write(`${pct(t)} ${k}\n`);
}
