import { type Kysely, sql } from "kysely";

// Document requests (issue 18): the firm asks a client for documents, the client uploads against
// the request and marks it submitted, the firm marks it done or reopens it with a comment. A
// request goes with its client (cascade); its folder may be deleted (the uploads then go where the
// client chooses). Documents name the request they were uploaded for; deleting a request keeps
// them. The two reminder columns hold the due date each reminder was queued for, so the periodic
// sweep takes each reminder once (see docs/decisions.md, Document requests).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table document_requests (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      title text not null,
      description text not null default '',
      due_date date,
      folder_id uuid references folders (id) on delete set null,
      status text not null default 'open' check (status in ('open', 'submitted', 'done')),
      comment text,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      submitted_at timestamptz,
      done_at timestamptz,
      early_reminder_for date,
      due_reminder_for date
    )`.execute(db);
  // One client's requests (their card, the firm's filter), and the firm's list newest first.
  await sql`create index document_requests_user_idx on document_requests (user_id, created_at desc, id desc)`.execute(db);
  await sql`create index document_requests_created_idx on document_requests (created_at desc, id desc)`.execute(db);
  // The reminder sweep reads only open requests with a due date.
  await sql`create index document_requests_due_idx on document_requests (due_date) where status = 'open' and due_date is not null`.execute(db);
  // A folder delete sets the requests' folder to null through this index rather than a scan.
  await sql`create index document_requests_folder_idx on document_requests (folder_id) where folder_id is not null`.execute(db);

  await sql`alter table documents add column request_id uuid references document_requests (id) on delete set null`.execute(db);
  await sql`create index documents_request_idx on documents (request_id) where request_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index documents_request_idx`.execute(db);
  await sql`alter table documents drop column request_id`.execute(db);
  await sql`drop table document_requests`.execute(db);
}
