import { type Kysely, sql } from "kysely";

// The end of a session, told to every instance (docs/security.md, "Round 3 (issue 28)"): each
// deleted session row is a NOTIFY on the message streams' channel, sent when its transaction
// commits, so the streams opened with it end at once wherever they are. A trigger, not the app,
// because sessions end in many places: a sign-out, a revocation, a password change or reset, the
// sweep of expired ones, and the user's removal (which deletes them by cascade).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function sessions_notify_ended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('portal_messages', 'session-ended:' || old.id);
      return null;
    end
    $$`.execute(db);
  await sql`create trigger sessions_notify_ended after delete on sessions for each row execute function sessions_notify_ended()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger sessions_notify_ended on sessions`.execute(db);
  await sql`drop function sessions_notify_ended()`.execute(db);
}
