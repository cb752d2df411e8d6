// `npm run backup -- --out FILE`: one encrypted archive of the whole firm (database and stored
// documents), taken while the app runs. See the README ("Backups") and docs/safeguards.md ("Backup").
import { parseArgs } from "node:util";
import { backupToFile } from "../server/backup/run.ts";
import { loadConfig } from "../server/config.ts";
import { createLogger } from "../server/logger.ts";

const { values } = parseArgs({ options: { out: { type: "string" } } });
if (!values.out) {
  console.error("usage: npm run backup -- --out FILE");
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.logLevel);
try {
  const summary = await backupToFile(config, values.out, logger);
  const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
  logger.info({ file: values.out, rows, objects: summary.objects, object_bytes: summary.object_bytes }, "backup written");
  if (summary.missing_objects.length > 0)
    logger.warn({ storage_keys: summary.missing_objects }, "documents deleted while the backup ran are not in it (their rows are)");
} catch (err) {
  logger.error({ err: err instanceof Error ? err.message : err }, "backup failed");
  process.exitCode = 1;
}
