import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { build } from "vite";
import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "../server/db/database.ts";
import { createLogger } from "../server/logger.ts";
import { adminUrl, dropDatabase } from "./helpers/database.ts";

/**
 * Once per run: builds the web client into a folder of this run's own (so a build elsewhere, of
 * dist/client or by another run, cannot swap chunks under a browser test), and migrates a template
 * database that every test file then copies. Both names are unique per run.
 */
export default async function setup(project: TestProject) {
  const clientDir = await mkdtemp(path.join(tmpdir(), "portal-client-"));
  await build({ logLevel: "warn", build: { outDir: clientDir, emptyOutDir: true } });
  project.provide("clientDir", clientDir);
  const removeClient = () => rm(clientDir, { recursive: true, force: true });

  const base = process.env.DATABASE_URL;
  if (!base) return removeClient;
  const template = `portal_template_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl(base) });
  await admin.connect();
  try {
    await admin.query(`create database ${template}`);
  } finally {
    await admin.end();
  }
  const logger = createLogger("silent");
  const handle = await openDatabase({ databaseUrl: adminUrl(base, template), dataDir: "memory://", logger });
  await migrateToLatest(handle.db, logger);
  await handle.close();
  project.provide("templateDatabase", template);
  return async () => {
    await removeClient();
    await dropDatabase(base, template);
  };
}
