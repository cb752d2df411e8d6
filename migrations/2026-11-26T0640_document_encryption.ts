import { type Kysely, sql } from "kysely";

// Documents encrypted at rest (issue 37; docs/security.md, "Documents encrypted at rest"): each
// stored object has a data key of its own, kept here wrapped by the master key (master_key_id names
// which one), so a key rotation rewrites these rows and never the objects. An object without a row
// was stored before encryption and is read as it is until the background job encrypts it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table stored_object_keys (
      storage_key text primary key,
      wrapped_key bytea not null,
      master_key_id text not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index stored_object_keys_master_key_id on stored_object_keys (master_key_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table stored_object_keys`.execute(db);
}
