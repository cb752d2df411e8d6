import type { Logger } from "pino";
import type { ObjectStorage } from "./storage.ts";

/**
 * Removes the stored content of rows that are already deleted. Call it only after the deleting
 * transaction has committed: a rolled-back delete must still find its file. A failure leaves an
 * unreferenced file (logged), never a row without content.
 */
export async function removeStoredObjects(storage: ObjectStorage, logger: Logger, rows: readonly { storage_key: string }[]): Promise<void> {
  for (const { storage_key } of rows) {
    try {
      await storage.delete(storage_key);
    } catch (err) {
      logger.warn({ err, storage_key }, "stored object of a deleted document was not removed");
    }
  }
}
