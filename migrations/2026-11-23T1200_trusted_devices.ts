import { type Kysely, sql } from "kysely";

// Device cookies: a browser that signed in to an account holds a random token for it; the table
// keeps only the token's SHA-256. A login attempt from such a browser is counted against that
// browser alone, so other people's failed guesses cannot lock it out of the account.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("trusted_devices")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index trusted_devices_user_id_idx on trusted_devices (user_id, created_at desc)`.execute(db);
  await db.schema.createIndex("trusted_devices_expires_at_idx").on("trusted_devices").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("trusted_devices").execute();
}
