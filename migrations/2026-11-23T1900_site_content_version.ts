import { type Kysely, sql } from "kysely";

// The landing page is rendered once and kept in memory by each instance; every request asks only
// this one-row counter whether the site content changed since. A statement-level trigger bumps it
// on any write to site_content, whichever code (or person at psql) makes it, and an instance that
// sees a new number renders the page again: an edit shows on every instance at once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table site_content_version (id boolean primary key default true check (id), version bigint not null)`.execute(db);
  await sql`insert into site_content_version (id, version) values (true, 1)`.execute(db);
  await sql`
    create function site_content_version_bump() returns trigger language plpgsql as $$
    begin
      update site_content_version set version = version + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger site_content_version_bump after insert or update or delete or truncate on site_content
    for each statement execute function site_content_version_bump()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger site_content_version_bump on site_content`.execute(db);
  await sql`drop function site_content_version_bump()`.execute(db);
  await sql`drop table site_content_version`.execute(db);
}
