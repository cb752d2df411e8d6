import type { Db } from "../../db/types.ts";
import type { MediaSlot, RecordMediaInput } from "./schemas.ts";

const MEDIA_COLUMNS = ["slot", "name", "storage_key", "content_type", "byte_size", "width", "height", "original_filename", "uploaded_at"] as const;

export async function listSiteMedia(db: Db) {
  return db.selectFrom("site_media").select(MEDIA_COLUMNS).execute();
}

export async function findSiteMediaByName(db: Db, name: string) {
  return db.selectFrom("site_media").select(["name", "storage_key", "content_type", "byte_size"]).where("name", "=", name).executeTakeFirst();
}

export async function findSiteMediaSlot(db: Db, slot: MediaSlot) {
  return db.selectFrom("site_media").select(MEDIA_COLUMNS).where("slot", "=", slot).executeTakeFirst();
}

/** Takes the slot (locking its row for the rest of the transaction) and answers what it held. */
export async function replaceSiteMedia(db: Db, row: RecordMediaInput, now: Date): Promise<{ storage_key: string } | undefined> {
  const previous = await db.selectFrom("site_media").select("storage_key").where("slot", "=", row.slot).forUpdate().executeTakeFirst();
  if (previous) await db.deleteFrom("site_media").where("slot", "=", row.slot).execute();
  await db
    .insertInto("site_media")
    .values({ ...row, uploaded_at: now })
    .execute();
  return previous;
}

export async function deleteSiteMedia(db: Db, slot: MediaSlot) {
  return db.deleteFrom("site_media").where("slot", "=", slot).returning(["storage_key", "name"]).executeTakeFirst();
}

/** The site's switches and the testimonials' confirmation, as firm settings (absent: the default). */
export const SITE_SETTING = {
  welcomeModalOff: "site_welcome_modal_off",
  testimonialsHidden: "site_testimonials_hidden",
  testimonialsConfirmedAt: "site_testimonials_confirmed_at",
} as const;
type SiteSettingKey = (typeof SITE_SETTING)[keyof typeof SITE_SETTING];

export async function readSiteSettings(db: Db): Promise<Partial<Record<SiteSettingKey, string>>> {
  const rows = await db.selectFrom("firm_settings").select(["key", "value"]).where("key", "in", Object.values(SITE_SETTING)).execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function writeSiteSetting(db: Db, key: SiteSettingKey, value: string | null, now: Date): Promise<void> {
  if (value === null) {
    await db.deleteFrom("firm_settings").where("key", "=", key).execute();
    return;
  }
  await db
    .insertInto("firm_settings")
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
}
