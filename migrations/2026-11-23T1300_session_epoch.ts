import type { Kysely } from "kysely";

// users.session_epoch counts the times a user's sessions were all ended (password reset, Google
// linking, promotion to admin). A sign-in reads it when it checks the credential and creates its
// session only if it is unchanged, so a check made before a reset cannot open a session after it.
// A login code (Google sign-in) carries the epoch of its own check, and the hash of a cookie set in
// the browser that finished the sign-in, so only that browser can redeem it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("session_epoch", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("login_codes")
    .addColumn("session_epoch", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("browser_hash", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("login_codes").dropColumn("browser_hash").dropColumn("session_epoch").execute();
  await db.schema.alterTable("users").dropColumn("session_epoch").execute();
}
