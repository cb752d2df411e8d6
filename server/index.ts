// Start: read the configuration, open the database (Postgres or the embedded one), migrate, listen.
import { loadConfig } from "./config.ts";
import { openDatabase, migrateToLatest } from "./db/database.ts";
import { createLogger } from "./logger.ts";
import { startServer } from "./server.ts";

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
})();
const logger = createLogger(config.logLevel);

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
await migrateToLatest(database.db, logger);
const server = await startServer({ config, logger, database });
logger.info({ url: config.publicUrl, database: database.kind, port: server.port }, "server listening");

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, "shutting down");
    await server.close();
    process.exit(0);
  });
}
