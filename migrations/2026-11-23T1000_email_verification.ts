import { type Kysely, sql } from "kysely";

// Whether a user has shown they receive mail at their address, and the single-use links that
// show it. A link's token is stored only as its SHA-256, with the address it was sent to, so it
// verifies that address and no other.
//
// Accounts that exist now: those linked to Google (Google verified the address) and admins (set
// up by the firm with create-admin, which now marks them verified) start verified; self-registered
// clients start unverified, and the portal asks them to verify.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email_verified_at", "timestamptz").execute();
  await sql`update users set email_verified_at = now() where google_subject is not null or is_admin`.execute(db);

  await db.schema
    .createTable("email_verification_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("email_verification_tokens_user_id_idx").on("email_verification_tokens").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("email_verification_tokens").execute();
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
}
