// `npm run restore -- --in FILE`: brings an archive of `npm run backup` back into an empty database
// and an empty storage, with the app stopped. See the README ("Backups").
import { parseArgs } from "node:util";
import { restoreFromFile } from "../server/backup/run.ts";
import { loadConfig } from "../server/config.ts";
import { createLogger } from "../server/logger.ts";

const { values } = parseArgs({ options: { in: { type: "string" } } });
if (!values.in) {
  console.error("usage: npm run restore -- --in FILE");
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.logLevel);
try {
  const summary = await restoreFromFile(config, values.in, logger);
  const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
  logger.info({ file: values.in, rows, objects: summary.objects, migration: summary.migrations.at(-1) }, "restore finished");
} catch (err) {
  logger.error({ err: err instanceof Error ? err.message : err }, "restore failed: no rows or documents were restored");
  process.exitCode = 1;
}
