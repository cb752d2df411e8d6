import { type Kysely, sql } from "kysely";

// The firm's Inbox: what arrived that someone at the firm should look at (a client's uploads, a
// submitted document request, a consultation request, an appointment awaiting approval), unread
// until opened. A client's uploads within ten minutes of each other share one item; items about a
// client go with the client's account.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table inbox_items (
      id bigint generated always as identity primary key,
      kind text not null check (kind in ('upload', 'request_submitted', 'consultation', 'appointment_request')),
      client_id uuid references users (id) on delete cascade,
      subject_id text not null,
      summary jsonb not null default '{}'::jsonb,
      first_at timestamptz not null,
      last_at timestamptz not null,
      read_at timestamptz
    )`.execute(db);
  await sql`create index inbox_items_time_idx on inbox_items (last_at desc, id desc)`.execute(db);
  await sql`create index inbox_items_unread_idx on inbox_items (last_at desc, id desc) where read_at is null`.execute(db);
  await sql`create index inbox_items_client_idx on inbox_items (client_id, kind) where read_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table inbox_items`.execute(db);
}
