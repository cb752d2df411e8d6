import { type Kysely, sql } from "kysely";

// The firm's private notes on a client account (issue 34, "A client's page is the client's record";
// docs/decisions.md, "Private notes on a client's record"). Clients never read this table. A note
// goes with its account; its author may leave the firm's list (deactivated, never deleted), but
// a deleted user row leaves the note with no author rather than taking it away.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table account_notes (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts (id) on delete cascade,
      author_id uuid references users (id) on delete set null,
      body text not null check (length(body) between 1 and 10000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The record lists an account's notes newest first.
  await sql`create index account_notes_account_idx on account_notes (account_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table account_notes`.execute(db);
}
