import { type Kysely, sql } from "kysely";

// Search finds documents by what is in them (issue 34; docs/architecture.md, "Content search"). A
// job extracts the text of a PDF or text file after its upload (jobs/document-text.ts) and keeps
// only its lexemes, `content_vector`; `text_extracted_at` says it has been tried (done, skipped as
// unreadable, or nothing to read), so the backfill resumes at the first row still without it.
// `search_vector` is the name (weight A) and the content (weight B) in one column the GIN index
// covers; it is generated, so a rename re-indexes the name with no code of its own. The
// configuration is named ('english'::regconfig): to_tsvector is then immutable, as a generated
// column needs, and a query uses the same one.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table documents add column content_vector tsvector`.execute(db);
  await sql`alter table documents add column text_extracted_at timestamptz`.execute(db);
  await sql`
    alter table documents add column search_vector tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, original_filename), 'A') || setweight(coalesce(content_vector, ''::tsvector), 'B')
    ) stored`.execute(db);
  await sql`create index documents_search_vector_idx on documents using gin (search_vector)`.execute(db);
  // The backfill's worklist: live documents not yet tried, in id order (a few at a time).
  await sql`create index documents_text_pending_idx on documents (id) where text_extracted_at is null and deleted_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index documents_text_pending_idx`.execute(db);
  await sql`drop index documents_search_vector_idx`.execute(db);
  await sql`alter table documents drop column search_vector`.execute(db);
  await sql`alter table documents drop column text_extracted_at`.execute(db);
  await sql`alter table documents drop column content_vector`.execute(db);
}
