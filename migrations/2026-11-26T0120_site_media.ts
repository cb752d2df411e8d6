import { type Kysely, sql } from "kysely";

// The firm's uploaded logo, pictures, welcome video and its captions (docs/decisions.md, "The
// firm's own pictures and video"). One row per slot at a time; `name` is the public file name,
// made of the slot and the content's hash, so a new upload is a new URL and every URL may be
// cached for a year. The bytes live in the document storage under `storage_key`, which the
// orphan sweep reads here too. Writes here and to firm_settings (where the site's switches
// live) bump the landing page's version, as writes to site_content do.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("site_media")
    .addColumn("slot", "text", (c) => c.primaryKey().check(sql`slot in ('logo', 'hero', 'about', 'video', 'captions')`))
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("byte_size", "bigint", (c) => c.notNull().check(sql`byte_size >= 0`))
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("original_filename", "text", (c) => c.notNull())
    .addColumn("uploaded_at", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`
    create trigger site_media_version_bump after insert or update or delete or truncate on site_media
    for each statement execute function site_content_version_bump()`.execute(db);
  await sql`
    create trigger firm_settings_site_version_bump after insert or update or delete or truncate on firm_settings
    for each statement execute function site_content_version_bump()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger firm_settings_site_version_bump on firm_settings`.execute(db);
  await sql`drop trigger site_media_version_bump on site_media`.execute(db);
  await db.schema.dropTable("site_media").execute();
}
