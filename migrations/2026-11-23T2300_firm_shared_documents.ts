import { type Kysely, sql } from "kysely";

// Documents from the firm and upload notifications (issue 18).
// - documents.uploaded_by: who put the document there. Null (every document from before) or the
//   owner: the client's own upload; an admin: shared by the firm. Set null if that account goes,
//   as an admin account never does through the app.
// - upload_notices: one batch of uploads waiting for its email, per client and audience ('client':
//   the firm's uploads, told to the client; 'firm': the client's uploads, in the firm's digest).
//   At most one batch per client and audience is open; its email job is due at due_at and closes
//   it when it runs, so uploads after that open a new one.
// - upload_notice_documents: which documents a batch holds (gone with the document).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table documents add column uploaded_by uuid references users (id) on delete set null`.execute(db);
  await sql`create index documents_uploaded_by_idx on documents (uploaded_by) where uploaded_by is not null`.execute(db);

  await sql`
    create table upload_notices (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      audience text not null check (audience in ('client', 'firm')),
      opened_at timestamptz not null,
      due_at timestamptz not null,
      closed_at timestamptz
    )`.execute(db);
  await sql`create unique index upload_notices_open_key on upload_notices (user_id, audience) where closed_at is null`.execute(db);
  await sql`create index upload_notices_closed_at_idx on upload_notices (closed_at) where closed_at is not null`.execute(db);

  await sql`
    create table upload_notice_documents (
      notice_id uuid not null references upload_notices (id) on delete cascade,
      document_id uuid not null references documents (id) on delete cascade,
      primary key (notice_id, document_id)
    )`.execute(db);
  await sql`create index upload_notice_documents_document_idx on upload_notice_documents (document_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table upload_notice_documents`.execute(db);
  await sql`drop table upload_notices`.execute(db);
  await sql`alter table documents drop column uploaded_by`.execute(db);
}
