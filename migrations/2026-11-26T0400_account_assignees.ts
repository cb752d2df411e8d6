import { type Kysely, sql } from "kysely";

// Staff assigned to client accounts (issue 33; docs/decisions.md, "Assigned accounts (issue 33)"): a
// staff member without the all_clients right reaches only the accounts listed here for them. A row
// goes with its account or its person; the trail keeps the history of who was assigned when.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table account_assignees (
      account_id uuid not null references accounts (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      assigned_at timestamptz not null default now(),
      primary key (account_id, user_id)
    )`.execute(db);
  // The scope's question is "which accounts for this person": by user first.
  await sql`create index account_assignees_user_idx on account_assignees (user_id, account_id)`.execute(db);
  // Who on the firm's side read a conversation and an Inbox item last (the "who read").
  await sql`alter table message_threads add column firm_read_by uuid references users (id) on delete set null`.execute(db);
  await sql`alter table inbox_items add column read_by uuid references users (id) on delete set null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table inbox_items drop column read_by`.execute(db);
  await sql`alter table message_threads drop column firm_read_by`.execute(db);
  await sql`drop table account_assignees`.execute(db);
}
