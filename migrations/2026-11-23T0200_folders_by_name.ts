import { type Kysely, sql } from "kysely";

// A client's folder list is ordered by lower(name): with this index Postgres reads it in order
// instead of lowercasing and sorting every folder on each listing (most of the query's time at a
// thousand folders).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index folders_user_name_idx on folders (user_id, lower(name), id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index folders_user_name_idx`.execute(db);
}
