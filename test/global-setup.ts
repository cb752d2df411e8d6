import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "../server/db/database.ts";
import { createLogger } from "../server/logger.ts";
import { adminUrl, dropDatabase, embeddedScratchDir } from "./helpers/database.ts";
import { shareOnce } from "./helpers/run-once.ts";

/**
 * Once per run, for the projects that start servers (vitest.config.ts): migrates a template
 * database that every test file then copies (helpers/database.ts). On Postgres its name is unique
 * per run; without DATABASE_URL it is an embedded database's data folder of this run's own.
 */
export default async function setup(project: TestProject) {
  const logger = createLogger("silent");
  const base = process.env.DATABASE_URL;
  if (!base) {
    const embedded = await shareOnce("embeddedTemplate", async () => {
      // The test files' copies go beside the template, so the teardown removes them too, even
      // those of a test process that died.
      const runDir = await mkdtemp(path.join(embeddedScratchDir(), "portal-db-run-"));
      const dataDir = path.join(runDir, "template");
      const handle = await openDatabase({ dataDir, logger });
      await migrateToLatest(handle.db, logger);
      await handle.close();
      return { value: dataDir, dispose: () => rm(runDir, { recursive: true, force: true }) };
    });
    project.provide("embeddedTemplate", embedded.value);
    return embedded.release;
  }
  const shared = await shareOnce("templateDatabase", async () => {
    const template = `portal_template_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl(base) });
    await admin.connect();
    try {
      await admin.query(`create database ${template}`);
    } finally {
      await admin.end();
    }
    const handle = await openDatabase({ databaseUrl: adminUrl(base, template), dataDir: "memory://", logger });
    await migrateToLatest(handle.db, logger);
    await handle.close();
    return { value: template, dispose: () => dropDatabase(base, template) };
  });
  project.provide("templateDatabase", shared.value);
  return shared.release;
}
