// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database).
import { loadConfig } from "../server/config.ts";
import { migrateToLatest, openDatabase } from "../server/db/database.ts";
import { createLogger } from "../server/logger.ts";

const config = loadConfig();
const logger = createLogger(config.logLevel);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
try {
  await migrateToLatest(database.db, logger);
  logger.info({ database: database.kind }, "database is up to date");
} finally {
  await database.close();
}
