import { type Kysely, sql } from "kysely";

// Private conversations (docs/decisions.md, "Private conversations"): besides the account's own
// conversation, which every person of the account reads, a person may hold one with the firm that
// only they and the firm read. A thread is now keyed by its own id; an account keeps exactly one
// shared thread (every existing thread, so today's conversations stay as they are) and at most one
// private thread per person. A private thread whose person is deleted stays private: nobody of the
// account reads it any more, and the firm keeps it as it keeps the account's other records.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table message_threads add column id uuid not null default gen_random_uuid()`.execute(db);
  await sql`alter table message_threads add column is_private boolean not null default false`.execute(db);
  await sql`alter table message_threads add column private_to uuid references users (id) on delete set null`.execute(db);
  await sql`alter table message_threads add constraint message_threads_private_to_check check (private_to is null or is_private)`.execute(db);
  await sql`alter table messages drop constraint messages_client_id_fkey`.execute(db);
  await sql`alter table message_threads drop constraint message_threads_pkey`.execute(db);
  await sql`alter table message_threads add primary key (id)`.execute(db);
  await sql`create unique index message_threads_shared_key on message_threads (account_id) where not is_private`.execute(db);
  await sql`create unique index message_threads_private_key on message_threads (account_id, private_to) where is_private`.execute(db);
  await sql`alter table messages add column thread_id uuid`.execute(db);
  await sql`update messages set thread_id = t.id from message_threads t where t.account_id = messages.account_id`.execute(db);
  await sql`alter table messages alter column thread_id set not null`.execute(db);
  await sql`alter table messages add constraint messages_thread_id_fkey foreign key (thread_id) references message_threads (id) on delete cascade`.execute(
    db,
  );
  await sql`alter table messages add constraint messages_account_id_fkey foreign key (account_id) references accounts (id) on delete cascade`.execute(
    db,
  );
  await sql`create index messages_thread_seq_idx on messages (thread_id, seq desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Private threads had no place before: they go, with their messages.
  await sql`delete from message_threads where is_private`.execute(db);
  await sql`drop index messages_thread_seq_idx`.execute(db);
  await sql`alter table messages drop constraint messages_account_id_fkey`.execute(db);
  await sql`alter table messages drop constraint messages_thread_id_fkey`.execute(db);
  await sql`alter table messages drop column thread_id`.execute(db);
  await sql`drop index message_threads_private_key`.execute(db);
  await sql`drop index message_threads_shared_key`.execute(db);
  await sql`alter table message_threads drop constraint message_threads_pkey`.execute(db);
  await sql`alter table message_threads add primary key (account_id)`.execute(db);
  await sql`alter table messages add constraint messages_client_id_fkey foreign key (account_id) references message_threads (account_id) on delete cascade`.execute(
    db,
  );
  await sql`alter table message_threads drop constraint message_threads_private_to_check`.execute(db);
  await sql`alter table message_threads drop column private_to`.execute(db);
  await sql`alter table message_threads drop column is_private`.execute(db);
  await sql`alter table message_threads drop column id`.execute(db);
}
