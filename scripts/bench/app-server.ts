// The app as the benchmarks run it: server/index.ts's start, in a child process of its own (so its
// memory and CPU are its own), serving the client build the bench made (BENCH_CLIENT_DIR).
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { startServer } from "../../server/server.ts";

const config = loadConfig();
const logger = createLogger(config.logLevel);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
const clientDir = process.env.BENCH_CLIENT_DIR || undefined;
const server = await startServer({ config, logger, database, app: { clientDir } });
process.send?.({ port: server.port });
process.on("disconnect", () => {
  void server.close().then(() => process.exit(0));
});
