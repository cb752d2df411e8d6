import type { Kysely, Transaction } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../db/types.ts";
import type { ObjectStorage, StoredObject } from "./storage.ts";

/**
 * Data keys older than `before` whose object no row names. NOT EXISTS, anti-joins on the rows'
 * unique storage_key indexes: a NOT IN over every document's key is checked row by row once those
 * keys no longer fit in work_mem, which at a few hundred thousand documents would hold the hourly
 * sweep for hours.
 */
export function orphanedKeysDelete(db: Kysely<Database> | Transaction<Database>, before: Date) {
  return db
    .deleteFrom("stored_object_keys")
    .where("created_at", "<", before)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("documents").select("documents.id").whereRef("documents.storage_key", "=", "stored_object_keys.storage_key"))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom("site_media").select("site_media.storage_key").whereRef("site_media.storage_key", "=", "stored_object_keys.storage_key")),
      ),
    );
}

/**
 * An upload stores its object before its row commits, and may take up to 5 minutes to arrive: an
 * object this old without a row will never get one.
 */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;
const BATCH = 500;

type SweepDeps = {
  db: Kysely<Database> | Transaction<Database>;
  storage: ObjectStorage;
  logger: Logger;
  now: () => Date;
};

/**
 * Removes stored objects that no `documents` or `site_media` row names and that are older than an hour: what an
 * instance left behind when it died between storing an upload and recording it, or when a removal
 * after a delete failed. Returns how many it removed. Safe to run on several instances at once.
 */
export async function sweepOrphanedObjects(deps: SweepDeps): Promise<number> {
  const cutoff = deps.now().getTime() - ORPHAN_AGE_MS;
  let removed = 0;
  let batch: StoredObject[] = [];
  const sweepBatch = async () => {
    const keys = batch.map((o) => o.key);
    batch = [];
    const named = await deps.db
      .selectFrom("documents")
      .select("storage_key")
      .where("storage_key", "in", keys)
      .unionAll(deps.db.selectFrom("site_media").select("storage_key").where("storage_key", "in", keys))
      .execute();
    const referenced = new Set(named.map((r) => r.storage_key));
    for (const key of keys) {
      if (referenced.has(key)) continue;
      await deps.storage.delete(key);
      removed += 1;
      deps.logger.info({ storage_key: key }, "orphaned stored object removed");
    }
  };
  for await (const object of deps.storage.list()) {
    if (object.lastModified.getTime() > cutoff) continue;
    batch.push(object);
    if (batch.length >= BATCH) await sweepBatch();
  }
  if (batch.length > 0) await sweepBatch();
  // Data keys of objects that were never stored (an instance died between writing the key and the
  // object) or whose object is gone; removing an object removes its key, so these are leftovers.
  const keys = await orphanedKeysDelete(deps.db, new Date(cutoff)).executeTakeFirst();
  if (keys.numDeletedRows > 0n) deps.logger.info({ removed: Number(keys.numDeletedRows) }, "orphaned data keys removed");
  return removed;
}
