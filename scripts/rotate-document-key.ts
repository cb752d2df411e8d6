// `npm run rotate-document-key`: re-wraps every document's data key under DOCUMENT_ENCRYPTION_KEY
// (the new master key), opening them with DOCUMENT_ENCRYPTION_KEY_PREVIOUS (the old one). Run it
// with the app already started on both variables; once it reports no key left behind, drop
// _PREVIOUS from the app's environment. See docs/security.md, "Documents encrypted at rest".
import { loadConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/database.ts";
import { createLogger } from "../server/logger.ts";
import { documentMasterKeys } from "../server/storage/create-storage.ts";
import { rotateDocumentKeys } from "../server/storage/rotate-document-keys.ts";

const config = loadConfig();
const logger = createLogger(config.logLevel);
const keys = documentMasterKeys(config, logger);
if (keys.previous.length === 0) logger.warn("DOCUMENT_ENCRYPTION_KEY_PREVIOUS is not set: only keys already under the current key can be opened");
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
try {
  const result = await rotateDocumentKeys(database.db, keys, {
    onBatch: (done) => logger.info({ rewrapped: done }, "document keys re-wrapped so far"),
  });
  logger.info({ ...result, master_key_id: keys.current.id }, "document key rotation finished");
  if (result.unknownKey > 0) {
    logger.error(
      { left: result.unknownKey },
      "some document keys are wrapped by a master key that is not configured: set it as DOCUMENT_ENCRYPTION_KEY_PREVIOUS and run again",
    );
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
