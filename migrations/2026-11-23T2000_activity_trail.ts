import { type Kysely, sql } from "kysely";

// The activity trail: who did what, when, from where. Append-only: a trigger refuses every update,
// delete and truncate, so no code path of the app (nor a mistake at psql) can rewrite history. There
// is no foreign key to users: a client's trail outlives the account (its deletion is itself an
// event), so the rows keep a label of the client and of the actor as they were then.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table activity_events (
      id bigint generated always as identity primary key,
      occurred_at timestamptz not null default now(),
      client_id uuid,
      client_label text,
      actor_id uuid,
      actor_role text not null check (actor_role in ('client', 'admin', 'system')),
      actor_label text not null,
      action text not null,
      target_type text,
      target_id text,
      detail jsonb not null default '{}'::jsonb,
      ip text,
      user_agent text
    )`.execute(db);
  // Keyset pages newest first: all events, one client's, one action's.
  await sql`create index activity_events_time_idx on activity_events (occurred_at desc, id desc)`.execute(db);
  await sql`create index activity_events_client_time_idx on activity_events (client_id, occurred_at desc, id desc)`.execute(db);
  await sql`create index activity_events_action_time_idx on activity_events (action, occurred_at desc, id desc)`.execute(db);
  await sql`
    create function activity_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'activity_events is append-only' using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`
    create trigger activity_events_no_change before update or delete on activity_events
    for each row execute function activity_events_append_only()`.execute(db);
  await sql`
    create trigger activity_events_no_truncate before truncate on activity_events
    for each statement execute function activity_events_append_only()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table activity_events`.execute(db);
  await sql`drop function activity_events_append_only()`.execute(db);
}
