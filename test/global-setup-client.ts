import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import type { TestProject } from "vitest/node";
import { shareOnce } from "./helpers/run-once.ts";

/**
 * Once per run, only for the projects that serve the web client (the browser tests, vitest.config.ts):
 * builds it into a folder of this run's own, so a build elsewhere, of dist/client or by another
 * run, cannot swap chunks under a browser test.
 */
export default async function setup(project: TestProject) {
  const shared = await shareOnce("clientDir", async () => {
    const clientDir = await mkdtemp(path.join(tmpdir(), "portal-client-"));
    await build({ logLevel: "warn", build: { outDir: clientDir, emptyOutDir: true } });
    return { value: clientDir, dispose: () => rm(clientDir, { recursive: true, force: true }) };
  });
  project.provide("clientDir", shared.value);
  return shared.release;
}
