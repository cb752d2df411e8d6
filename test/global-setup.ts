import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "../server/db/database.ts";
import { createLogger } from "../server/logger.ts";
import { adminUrl, dropDatabase } from "./helpers/database.ts";

/**
 * Migrates a template database once per run; every test file then copies it. The name is unique
 * per run so that two runs on one Postgres server never trip over each other's template.
 */
export default async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL;
  if (!base) return;
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
  return () => dropDatabase(base, template);
}
