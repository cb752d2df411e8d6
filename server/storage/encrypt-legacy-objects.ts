// Objects stored before encryption at rest (no stored_object_keys row) are encrypted by a job
// (jobs/encrypt-stored-objects.ts), a batch a run: each is copied, encrypted, under a new key; the
// row is moved to it by one UPDATE that also requires the old key (a row deleted or changed
// meanwhile is left alone and the copy removed); then the old object is removed. A reader holds
// either key and finds an object under it, but for a download that found the old key in the moment
// before its removal (it answers 404 and the client retries). A document's copy is checked against
// its recorded SHA-256 before the row moves, so a damaged original is never sealed as genuine.
import { createHash, randomUUID } from "node:crypto";
import { Transform } from "node:stream";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../db/types.ts";
import { EncryptedStorage } from "./encrypted-storage.ts";
import { ObjectNotFoundError, type ObjectStorage } from "./storage.ts";

export const LEGACY_BATCH = 50;

export type LegacyCursor = { table: "documents" | "site_media"; afterKey?: string };

type Deps = { db: Kysely<Database>; storage: ObjectStorage; logger: Logger };

/** One run: up to LEGACY_BATCH plaintext objects after the cursor. Answers where to go on, or null when done. */
export async function encryptLegacyObjects(deps: Deps, cursor: LegacyCursor): Promise<LegacyCursor | null> {
  const storage = deps.storage;
  if (!(storage instanceof EncryptedStorage)) return null;
  const rows = await pendingKeysQuery(deps.db, cursor).execute();
  for (const { storage_key } of rows) {
    try {
      await encryptOne(deps, storage, cursor.table, storage_key);
    } catch (err) {
      deps.logger.warn({ err, storage_key }, "encrypting a stored object: left for a later run");
    }
  }
  if (rows.length === LEGACY_BATCH) return { table: cursor.table, afterKey: rows.at(-1)!.storage_key };
  return cursor.table === "documents" ? { table: "site_media" } : null;
}

async function encryptOne(deps: Deps, storage: EncryptedStorage, table: LegacyCursor["table"], oldKey: string): Promise<void> {
  let plain;
  try {
    plain = await storage.backend.get(oldKey);
  } catch (err) {
    if (err instanceof ObjectNotFoundError) {
      deps.logger.warn({ storage_key: oldKey }, "encrypting a stored object: the object is missing");
      return;
    }
    throw err;
  }
  const hash = createHash("sha256");
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  plain.on("error", (err) => hashing.destroy(err));
  const newKey = randomUUID();
  await storage.put(newKey, plain.pipe(hashing));
  const digest = hash.digest("hex");
  let moved: boolean;
  if (table === "documents") {
    const result = await deps.db
      .updateTable("documents")
      .set({ storage_key: newKey })
      .where("storage_key", "=", oldKey)
      .where("sha256", "=", digest)
      .executeTakeFirst();
    moved = result.numUpdatedRows > 0n;
    if (!moved) {
      const still = await deps.db.selectFrom("documents").select("sha256").where("storage_key", "=", oldKey).executeTakeFirst();
      if (still)
        deps.logger.error({ storage_key: oldKey }, "encrypting a stored object: its content does not match the document's SHA-256; left as it is");
    }
  } else {
    const result = await deps.db.updateTable("site_media").set({ storage_key: newKey }).where("storage_key", "=", oldKey).executeTakeFirst();
    moved = result.numUpdatedRows > 0n;
  }
  if (!moved) {
    await storage.delete(newKey);
    return;
  }
  await storage.backend.delete(oldKey);
  deps.logger.info({ old_storage_key: oldKey, storage_key: newKey }, "stored object encrypted");
}

/**
 * Objects of `table` without a data key, after the cursor, in key order. NOT EXISTS, an anti-join:
 * a NOT IN over every key row is checked row by row once the keys no longer fit in work_mem (with
 * 300,000 keys a run had not ended after 20 s; this form took 0.1 s), and the job runs every ten
 * minutes.
 */
export function pendingKeysQuery(db: Kysely<Database>, cursor: LegacyCursor) {
  const query =
    cursor.table === "documents"
      ? db
          .selectFrom("documents as t")
          .select("t.storage_key")
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom("stored_object_keys as k").select("k.storage_key").whereRef("k.storage_key", "=", "t.storage_key"))),
          )
      : db
          .selectFrom("site_media as t")
          .select("t.storage_key")
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom("stored_object_keys as k").select("k.storage_key").whereRef("k.storage_key", "=", "t.storage_key"))),
          );
  return (cursor.afterKey === undefined ? query : query.where("t.storage_key", ">", cursor.afterKey)).orderBy("t.storage_key").limit(LEGACY_BATCH);
}
