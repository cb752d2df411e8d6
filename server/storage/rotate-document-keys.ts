// `npm run rotate-document-key` (scripts/rotate-document-key.ts): every data key wrapped by another
// master key than the current one is unwrapped with the key it names and wrapped again with the
// current one, a batch at a time. Objects are never touched. Each row is rewritten only if it still
// names the key it was read under, so it is safe beside the running app (which opens rows under the
// current and the previous key) and beside another run; stopped anywhere, it goes on where it was.
import type { Kysely } from "kysely";
import type { Database } from "../db/types.ts";
import type { MasterKeys } from "./encrypted-storage.ts";
import { unwrapKey, wrapKey } from "./object-encryption.ts";

export type RotationResult = { rewrapped: number; unknownKey: number };

export async function rotateDocumentKeys(
  db: Kysely<Database>,
  keys: MasterKeys,
  opts: { batch?: number; onBatch?: (done: number) => void } = {},
): Promise<RotationResult> {
  const batch = opts.batch ?? 500;
  const known = new Map([keys.current, ...keys.previous].map((k) => [k.id, k]));
  let rewrapped = 0;
  let unknownKey = 0;
  let after = "";
  for (;;) {
    const rows = await db
      .selectFrom("stored_object_keys")
      .select(["storage_key", "wrapped_key", "master_key_id"])
      .where("master_key_id", "!=", keys.current.id)
      .where("storage_key", ">", after)
      .orderBy("storage_key")
      .limit(batch)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const master = known.get(row.master_key_id);
      if (!master) {
        unknownKey += 1;
        continue;
      }
      const dataKey = unwrapKey(master, row.storage_key, row.wrapped_key);
      const result = await db
        .updateTable("stored_object_keys")
        .set({ wrapped_key: wrapKey(keys.current, row.storage_key, dataKey), master_key_id: keys.current.id })
        .where("storage_key", "=", row.storage_key)
        .where("master_key_id", "=", row.master_key_id)
        .executeTakeFirst();
      rewrapped += Number(result.numUpdatedRows);
    }
    after = rows.at(-1)!.storage_key;
    opts.onBatch?.(rewrapped);
  }
  return { rewrapped, unknownKey };
}
