import { type Kysely, sql } from "kysely";

// The firm's searches match an account's name with ILIKE '%text%' (documents, requests,
// appointments, the accounts list) beside the people's trigram index; without one of its own, each
// such search read every account. Measured on 100,000 accounts: 40 ms a scan, 0.1 ms with the index;
// the admin document search runs it twice (docs/performance.md, "Latest results").
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index accounts_name_trgm_idx on accounts using gin (name gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index accounts_name_trgm_idx`.execute(db);
}
