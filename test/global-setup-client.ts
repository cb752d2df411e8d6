import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { build } from "vite";
import type { TestProject } from "vitest/node";
import { shareOnce } from "./helpers/run-once.ts";

const root = path.resolve(import.meta.dirname, "..");
/** Everything the client build reads: its sources, the server's schemas it imports, the config and the lockfile. */
const INPUTS = ["src", "public", "server", "index.html", "vite.config.ts", "tsconfig.json", "package.json", "package-lock.json"];
const CACHE = path.join(root, "node_modules", ".cache", "portal-client");
/** Builds nobody used for this long are removed (a run touches the one it uses). */
const UNUSED_FOR_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Once per run, only for the projects that serve the web client (the browser tests, vitest.config.ts).
 * A build is kept under the hash of what it was built from and never changed afterwards, so a run
 * whose sources did not change since the last one starts at once, and a build elsewhere (of
 * dist/client, by another run, of other sources) cannot swap chunks under a browser test.
 */
export default async function setup(project: TestProject) {
  const shared = await shareOnce("clientDir", async () => ({ value: await cachedBuild(), dispose: async () => {} }));
  project.provide("clientDir", shared.value);
  return shared.release;
}

/** The build for these sources, made if there is none yet (also run by scripts/test.sh beside the lint). */
export async function cachedBuild(): Promise<string> {
  const dir = path.join(CACHE, await hashInputs());
  await mkdir(CACHE, { recursive: true });
  if (!existsSync(path.join(dir, "index.html"))) {
    // Built aside and moved into place in one step: another run building the same sources
    // meanwhile finds either nothing or the whole build, and the second to finish drops its own.
    const building = await mkdtemp(path.join(CACHE, "building-"));
    try {
      await build({ logLevel: "warn", build: { outDir: building, emptyOutDir: true } });
      await rename(building, dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOTEMPTY" && err.code !== "EEXIST") throw err;
      });
    } finally {
      await rm(building, { recursive: true, force: true });
    }
  }
  const now = new Date();
  await utimes(dir, now, now);
  await removeUnused(dir);
  return dir;
}

async function hashInputs(): Promise<string> {
  const hash = createHash("sha256");
  const files = (await Promise.all(INPUTS.map((input) => listFiles(path.join(root, input))))).flat().sort();
  for (const file of files) {
    hash.update(path.relative(root, file)).update("\0");
    hash.update(await readFile(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

async function listFiles(entry: string): Promise<string[]> {
  const info = await stat(entry).catch(() => undefined);
  if (!info) return [];
  if (!info.isDirectory()) return [entry];
  const children = await readdir(entry);
  return (await Promise.all(children.map((child) => listFiles(path.join(entry, child))))).flat();
}

async function removeUnused(keep: string): Promise<void> {
  for (const name of await readdir(CACHE)) {
    const dir = path.join(CACHE, name);
    if (dir === keep) continue;
    const info = await stat(dir).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > UNUSED_FOR_MS) await rm(dir, { recursive: true, force: true });
  }
}
