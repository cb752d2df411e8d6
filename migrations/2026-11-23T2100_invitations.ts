import { type Kysely, sql } from "kysely";

// The firm invites its clients (docs/decisions.md, Invitations). An invitation's link token is stored
// only as its SHA-256, and only once its mail is written (the queue never holds a usable link); a new
// token replaces the old one, so a resent invitation's earlier link is dead. At most one live
// invitation per address: the partial unique index refuses a second one that is neither accepted nor
// revoked (an expired one is removed by the invitation that replaces it).
//
// Whether anyone may register without an invitation is the firm setting `registration`
// (`open` or `invite_only`), in firm_settings beside the firm's other switches; open as before.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("invitations")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.unique())
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("accepted_at", "timestamptz")
    .addColumn("accepted_user_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("revoked_at", "timestamptz")
    .addColumn("last_sent_at", "timestamptz")
    .execute();
  await sql`create unique index invitations_open_email_key on invitations (lower(email)) where accepted_at is null and revoked_at is null`.execute(
    db,
  );
  await db.schema.createIndex("invitations_created_at_idx").on("invitations").columns(["created_at", "id"]).execute();
  await sql`insert into firm_settings (key, value) values ('registration', 'open') on conflict (key) do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from firm_settings where key = 'registration'`.execute(db);
  await db.schema.dropTable("invitations").execute();
}
