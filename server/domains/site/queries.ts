import type { Db } from "../../db/types.ts";

export async function listSiteContent(db: Db) {
  return db.selectFrom("site_content").select(["section", "key", "value"]).orderBy("section").orderBy("key").execute();
}

export async function findSiteValue(db: Db, section: string, key: string): Promise<string | undefined> {
  const row = await db.selectFrom("site_content").select("value").where("section", "=", section).where("key", "=", key).executeTakeFirst();
  return row?.value;
}

export async function upsertSiteValue(db: Db, entry: { section: string; key: string; value: string }, now: Date): Promise<void> {
  await db
    .insertInto("site_content")
    .values({ ...entry, updated_at: now })
    .onConflict((oc) => oc.columns(["section", "key"]).doUpdateSet({ value: entry.value, updated_at: now }))
    .execute();
}

export async function deleteSiteValue(db: Db, section: string, key: string): Promise<void> {
  await db.deleteFrom("site_content").where("section", "=", section).where("key", "=", key).execute();
}

/** Stores each entry unless that section and key already hold a value (an admin's edit wins). */
export async function insertMissingSiteValues(db: Db, entries: Array<{ section: string; key: string; value: string }>, now: Date) {
  if (entries.length === 0) return;
  await db
    .insertInto("site_content")
    .values(entries.map((e) => ({ ...e, updated_at: now })))
    .onConflict((oc) => oc.columns(["section", "key"]).doNothing())
    .execute();
}
