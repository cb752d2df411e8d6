import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "../server/db/database.ts";
import { createLogger } from "../server/logger.ts";
import { adminUrl, dropDatabase } from "./helpers/database.ts";
import { shareOnce } from "./helpers/run-once.ts";

/**
 * Once per run, for the projects that start servers (vitest.config.ts): migrates a template
 * database that every test file then copies. Its name is unique per run. Without DATABASE_URL each
 * file migrates an embedded database of its own instead (helpers/database.ts).
 */
export default async function setup(project: TestProject) {
  const logger = createLogger("silent");
  const base = process.env.DATABASE_URL;
  if (!base) return;
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
