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
import { insertUser } from "../../server/domains/auth/queries.ts";
import { createBenchDatabase, giveOwnAccount } from "./database.ts";
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
  await giveOwnAccount(
    handle.db,
    await insertUser(handle.db, {
      username: "profile-client",
      email: "p@example.com",
      name: "Profile",
      password_hash: await hashPassword(password),
      is_admin: false,
    }),
  );
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
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const where = (n: ProfileNode) => {
    const u = n.callFrame.url.replace(/^file:\/\//, "");
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1];
    return pkg ?? (u.includes("/server/") ? u.slice(u.indexOf("/server/") + 1) : u.startsWith("node:") ? "node" : u || "(native)");
  };
  const label = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${where(n)}:${n.callFrame.lineNumber + 1}`;
  const selfByFunction = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const t = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id)!;
    if (/^\((idle|program)\)$/.test(leaf.callFrame.functionName)) return;
    busy += t;
    selfByFunction.set(label(leaf), (selfByFunction.get(label(leaf)) ?? 0) + t);
    selfByPackage.set(where(leaf), (selfByPackage.get(where(leaf)) ?? 0) + t);
    // Inclusive time of each of our own functions and each package on the stack, counted once.
    const seen = new Set<string>();
    for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parent.get(node.id) ?? -1)) {
      const key = where(node).startsWith("server/") ? label(node) : where(node);
      seen.add(key);
    }
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + t);
  });
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`.padStart(6);
  const top = (title: string, map: Map<string, number>, n: number) => {
    process.stdout.write(`\n${title} (share of busy time):\n`);
    for (const [k, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) process.stdout.write(`${pct(t)} ${k}\n`);
  };
  process.stdout.write(`\nbusy ${(busy / 1e6).toFixed(1)} s of the profile\n`);
  top("self time by package", selfByPackage, 20);
  top("self time by function", selfByFunction, 30);
  top("inclusive time: packages and our functions on the stack", inclusive, 45);
}
