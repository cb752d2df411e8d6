import { type Kysely, sql } from "kysely";

// The firm as a team (issue 33; docs/decisions.md, "Staff roles and rights (issue 33)"). The firm's
// people stay admin users (`is_admin`, the stricter /admin session, a second factor), now with a
// role: exactly one `owner` (a partial unique index), `admin` (the specification's admin: everything
// but transferring ownership) or `staff` (what `staff_rights` names). A client has no role. A person
// who leaves is deactivated, never deleted, so the trail that names them keeps its meaning.
//
// Existing admins become `admin`, and the first of them made (created_at, then id) the `owner`.
// A staff invitation is an invitation row carrying the role and rights its acceptance gives.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("staff_role", "text", (c) => c.check(sql`staff_role in ('owner', 'admin', 'staff')`))
    .addColumn("staff_rights", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("deactivated_at", "timestamptz")
    .execute();
  await sql`alter table users add constraint users_staff_role_admin check (staff_role is null or is_admin)`.execute(db);
  await sql`update users set staff_role = 'admin' where is_admin`.execute(db);
  await sql`
    update users set staff_role = 'owner'
    where id = (select id from users where is_admin order by created_at, id limit 1)`.execute(db);
  await sql`create unique index users_one_owner_key on users (staff_role) where staff_role = 'owner'`.execute(db);

  await db.schema
    .alterTable("invitations")
    .addColumn("staff_role", "text", (c) => c.check(sql`staff_role in ('admin', 'staff')`))
    .addColumn("staff_rights", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .execute();
  // The trail's filter by the person who acted.
  await sql`create index activity_events_actor_time_idx on activity_events (actor_id, occurred_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index activity_events_actor_time_idx`.execute(db);
  await db.schema.alterTable("invitations").dropColumn("staff_role").dropColumn("staff_rights").execute();
  await sql`drop index users_one_owner_key`.execute(db);
  await sql`alter table users drop constraint users_staff_role_admin`.execute(db);
  await db.schema.alterTable("users").dropColumn("staff_role").dropColumn("staff_rights").dropColumn("deactivated_at").execute();
}
