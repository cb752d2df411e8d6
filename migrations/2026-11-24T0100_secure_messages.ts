import { type Kysely, sql } from "kysely";

// Secure messages (docs/decisions.md, "Secure messages"): one conversation per client. The thread
// row holds what both sides need at once: the last message, how far each side has read (by the
// messages' sequence numbers, which a clock change cannot reorder), and each side's open email
// burst. Everything goes with the client's account.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table message_threads (
      client_id uuid primary key references users (id) on delete cascade,
      last_seq bigint not null default 0,
      last_message_at timestamptz not null,
      client_read_seq bigint not null default 0,
      firm_read_seq bigint not null default 0,
      client_mail_due_at timestamptz,
      firm_mail_due_at timestamptz
    )`.execute(db);
  await sql`create index message_threads_latest_idx on message_threads (last_message_at desc, client_id)`.execute(db);
  await sql`
    create table messages (
      id uuid primary key default gen_random_uuid(),
      seq bigint generated always as identity unique,
      client_id uuid not null references message_threads (client_id) on delete cascade,
      sender_id uuid references users (id) on delete set null,
      sender_role text not null check (sender_role in ('client', 'admin')),
      text text not null check (char_length(text) <= 10000),
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index messages_client_seq_idx on messages (client_id, seq desc)`.execute(db);
  await sql`create index messages_sender_idx on messages (sender_id) where sender_id is not null`.execute(db);
  await sql`
    create table message_attachments (
      message_id uuid not null references messages (id) on delete cascade,
      document_id uuid not null references documents (id) on delete cascade,
      primary key (message_id, document_id)
    )`.execute(db);
  await sql`create index message_attachments_document_idx on message_attachments (document_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table message_attachments`.execute(db);
  await sql`drop table messages`.execute(db);
  await sql`drop table message_threads`.execute(db);
}
