// Start: read the configuration, open the database (Postgres or the embedded one), migrate, listen.
import { loadConfig } from "./config.ts";
import { openDatabase, migrateToLatest } from "./db/database.ts";
import { tuneGarbageCollector } from "./garbage-collector.ts";
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
tuneGarbageCollector();

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
await migrateToLatest(database.db, logger);
const server = await startServer({ config, logger, database });
logger.info({ url: config.publicUrl, database: database.kind, port: server.port }, "server listening");

/** How long requests under way (an upload of 10 MB over a slow line) may take to finish on shutdown. */
const SHUTDOWN_GRACE_MS = config.shutdownGraceMs;
/** Past this, stopping the jobs or closing the database hangs: give up on a clean exit. */
const SHUTDOWN_LIMIT_MS = SHUTDOWN_GRACE_MS + 10_000;

// A second signal is not caught: it ends the process at once.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "shutting down: no new connections, waiting for requests under way");
    setTimeout(() => {
      logger.error("shutdown did not finish in time");
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    server.close({ graceMs: SHUTDOWN_GRACE_MS }).then(
      () => {
        logger.info("shut down");
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
