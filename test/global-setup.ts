import pg from "pg";
import { migrateToLatest, openDatabase } from "../server/db/database.ts";
import { createLogger } from "../server/logger.ts";
import { adminUrl, dropDatabase, TEMPLATE_DATABASE } from "./helpers/database.ts";

/** Migrates the template database once per run; every test file then copies it. */
export default async function setup() {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  await dropDatabase(base, TEMPLATE_DATABASE);
  const admin = new pg.Client({ connectionString: adminUrl(base) });
  await admin.connect();
  try {
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const logger = createLogger("silent");
  const handle = await openDatabase({ databaseUrl: adminUrl(base, TEMPLATE_DATABASE), dataDir: "memory://", logger });
  await migrateToLatest(handle.db, logger);
  await handle.close();
}
