import { type Kysely, sql } from "kysely";

// Frozen in time: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("username", "text")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text")
    .addColumn("auth_provider", "text", (c) => c.notNull().defaultTo("local"))
    .addColumn("google_subject", "text", (c) => c.unique())
    .addColumn("is_admin", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index users_username_lower_key on users (lower(username))`.execute(db);
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);
  await db.schema.createIndex("users_created_at_idx").on("users").columns(["created_at desc", "id desc"]).execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('client', 'admin')`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_used_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("password_reset_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("password_reset_tokens_user_id_idx").on("password_reset_tokens").column("user_id").execute();

  // One-time ids handed to /profile after an external sign-in.
  await db.schema
    .createTable("login_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("login_codes_user_id_idx").on("login_codes").column("user_id").execute();

  // parent_folder_id and documents.folder_id use NO ACTION (checked at the end of the statement),
  // so a folder holding anything cannot be deleted, while a user's cascade still removes them all.
  await db.schema
    .createTable("folders")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("parent_folder_id", "uuid", (c) => c.references("folders.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("color", "text", (c) => c.notNull().defaultTo("#3B82F6"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index folders_sibling_name_key on folders (user_id, parent_folder_id, lower(name)) nulls not distinct`.execute(db);
  await db.schema.createIndex("folders_parent_folder_id_idx").on("folders").column("parent_folder_id").execute();

  await db.schema
    .createTable("documents")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("folder_id", "uuid", (c) => c.references("folders.id"))
    .addColumn("original_filename", "text", (c) => c.notNull())
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("file_size", "integer", (c) => c.notNull().check(sql`file_size >= 0`))
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("upload_date", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("documents_user_folder_idx").on("documents").columns(["user_id", "folder_id", "upload_date desc"]).execute();
  await db.schema.createIndex("documents_folder_id_idx").on("documents").column("folder_id").execute();
  await db.schema.createIndex("documents_upload_date_idx").on("documents").columns(["upload_date desc", "id desc"]).execute();

  await db.schema
    .createTable("appointments")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("appointment_date", "timestamptz", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('requested', 'scheduled', 'completed', 'cancelled')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("appointments_user_date_idx").on("appointments").columns(["user_id", "appointment_date"]).execute();
  await db.schema.createIndex("appointments_date_idx").on("appointments").columns(["appointment_date desc", "id desc"]).execute();

  await db.schema
    .createTable("consultation_requests")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("service", "text")
    .addColumn("preferred_date", "date")
    .addColumn("preferred_time", "text")
    .addColumn("message", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("handled_at", "timestamptz")
    .addColumn("email_sent_at", "timestamptz")
    .execute();
  await db.schema.createIndex("consultation_requests_created_idx").on("consultation_requests").columns(["created_at desc", "id desc"]).execute();

  await db.schema
    .createTable("site_content")
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("site_content_pkey", ["section", "key"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "site_content",
    "consultation_requests",
    "appointments",
    "documents",
    "folders",
    "login_codes",
    "password_reset_tokens",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
