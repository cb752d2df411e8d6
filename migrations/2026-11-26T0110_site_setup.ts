import { type Kysely, sql } from "kysely";

// The landing page says the firm's hours in words made from its weekly availability (issue 31),
// and each instance keeps the rendered page until site_content_version changes
// (2026-11-23T1900_site_content_version). A change of the weekly hours bumps the same counter, so
// the page follows the availability on every instance at once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create trigger site_content_version_bump after insert or update or delete or truncate on availability_ranges
    for each statement execute function site_content_version_bump()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger site_content_version_bump on availability_ranges`.execute(db);
}
