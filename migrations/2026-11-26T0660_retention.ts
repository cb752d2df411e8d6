import { type Kysely, sql } from "kysely";

// Retention and disposal (issue 37; docs/safeguards.md, "Retention and disposal"). The firm's rules
// (years kept after an account's last activity, years a signed Form 8879 is kept) are firm_settings
// rows; what needs a table is the legal hold: while an account has one, nothing of it is disposed
// of, the trash purge included. One hold per account, with the reason and who placed it; placing and
// lifting it are in the activity trail, which keeps the history. The partial index serves the
// retention job's "last sign-in of the account's people" (activity_events, auth.sign_in by actor).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table legal_holds (
      account_id uuid primary key references accounts (id) on delete cascade,
      reason text not null check (length(reason) between 1 and 1000),
      placed_by uuid references users (id) on delete set null,
      placed_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create index activity_events_sign_in_actor_idx on activity_events (actor_id, occurred_at desc)
    where action = 'auth.sign_in'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index activity_events_sign_in_actor_idx`.execute(db);
  await sql`drop table legal_holds`.execute(db);
}
