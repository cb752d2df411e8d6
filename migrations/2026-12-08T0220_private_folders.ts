import { type Kysely, sql } from "kysely";

// Private folders (docs/decisions.md, "Private folders"), as private conversations are (migration
// 2026-12-07T0700): a person of a shared account may keep a folder that only they and the firm see.
// Its subfolders are made private to the same person. A folder whose person is deleted stays private:
// nobody of the account sees it any more, and the firm keeps it with the account's other records.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table folders add column is_private boolean not null default false`.execute(db);
  await sql`alter table folders add column private_to uuid references users (id) on delete set null`.execute(db);
  await sql`alter table folders add constraint folders_private_to_check check (private_to is null or is_private)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table folders drop constraint folders_private_to_check`.execute(db);
  await sql`alter table folders drop column private_to`.execute(db);
  await sql`alter table folders drop column is_private`.execute(db);
}
