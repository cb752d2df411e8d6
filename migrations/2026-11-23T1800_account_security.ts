import { type Kysely, sql } from "kysely";

// Account settings, two-factor sign-in and passkeys (issue 20).
// - sessions get a public id (what the sessions list shows and revokes by: it is neither the token
//   nor its hash), and the address and user agent they were opened from.
// - totp_credentials: one authenticator per user; the secret (encrypted when a key is configured),
//   whether it is turned on, and the last time step accepted, so a code works once.
// - backup_codes: SHA-256 of each single-use code.
// - two_factor_challenges: the step between a right password and the second factor (or the
//   enrolment an account must make first); SHA-256 of the id, 5 minutes, single use.
// - passkeys and webauthn_challenges (short-lived, single use).
// - email_changes: a new address waits for its link (token as SHA-256, 1 hour, single use); the row
//   stays once confirmed, so the mail to the old address can still name it.
// - known_sign_ins: the browsers and addresses an account signed in from, for the "new sign-in" mail.
// - firm_settings: the firm's switches, such as two-factor for every client.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions
    add column public_id uuid not null default gen_random_uuid(),
    add column ip text,
    add column user_agent text`.execute(db);
  await sql`create unique index sessions_public_id_key on sessions (public_id)`.execute(db);

  await db.schema
    .createTable("totp_credentials")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enabled_at", "timestamptz")
    .addColumn("last_used_step", "integer")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("backup_codes")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("backup_codes_user_code_key", ["user_id", "code_hash"])
    .execute();

  await db.schema
    .createTable("two_factor_challenges")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('verify', 'enrol')`))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('client', 'admin')`))
    .addColumn("session_epoch", "integer", (c) => c.notNull())
    .addColumn("return_token", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("browser_hash", "text")
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("two_factor_challenges_user_id_idx").on("two_factor_challenges").column("user_id").execute();
  await db.schema.createIndex("two_factor_challenges_expires_at_idx").on("two_factor_challenges").column("expires_at").execute();

  await db.schema
    .createTable("passkeys")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "bytea", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("transports", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("passkeys_user_id_idx").on("passkeys").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("webauthn_challenges")
    .addColumn("challenge_hash", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('register', 'login')`))
    .addColumn("user_id", "uuid", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.check(sql`kind in ('client', 'admin')`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("webauthn_challenges_expires_at_idx").on("webauthn_challenges").column("expires_at").execute();

  await db.schema
    .createTable("email_changes")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("old_email", "text", (c) => c.notNull())
    .addColumn("old_email_verified", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("new_email", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.unique())
    .addColumn("expires_at", "timestamptz")
    .addColumn("confirmed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("email_changes_user_id_idx").on("email_changes").column("user_id").execute();

  await db.schema
    .createTable("known_sign_ins")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("browser", "text", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("first_seen_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("known_sign_ins_user_fingerprint_key", ["user_id", "fingerprint"])
    .execute();
  await db.schema.createIndex("known_sign_ins_last_seen_at_idx").on("known_sign_ins").column("last_seen_at").execute();

  await db.schema
    .createTable("firm_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "firm_settings",
    "known_sign_ins",
    "email_changes",
    "webauthn_challenges",
    "passkeys",
    "two_factor_challenges",
    "backup_codes",
    "totp_credentials",
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`alter table sessions drop column user_agent, drop column ip, drop column public_id`.execute(db);
}
