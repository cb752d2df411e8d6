import { type Kysely, sql } from "kysely";

// The admin lists search with ILIKE '%text%'; trigram GIN indexes let those searches read only
// matching rows instead of scanning every user and document (issue: benchmarks at 1M documents).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index users_search_trgm_idx on users using gin (name gin_trgm_ops, email gin_trgm_ops, username gin_trgm_ops)`.execute(db);
  await sql`create index documents_filename_trgm_idx on documents using gin (original_filename gin_trgm_ops)`.execute(db);
  await sql`create index consultation_requests_search_trgm_idx on consultation_requests using gin (name gin_trgm_ops, email gin_trgm_ops, phone gin_trgm_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index consultation_requests_search_trgm_idx`.execute(db);
  await sql`drop index documents_filename_trgm_idx`.execute(db);
  await sql`drop index users_search_trgm_idx`.execute(db);
}
