import type { Kysely } from "kysely";

// Issue 28 (docs/security.md, Round 3): mailbox proofs, pending email changes, fresh proofs.
// - sessions.proven_at / second_factor_proven_at: when the person at this session last showed the
//   password (or signed in) and a second factor; adding a passkey or turning two-factor on needs
//   the first within 10 minutes.
// - passkeys.proven / second_factor_proven: whether the passkey was added under such a fresh proof,
//   and under a fresh second factor (only then does it stand for both factors of an admin).
// - email_changes.cancel_token_hash: the current address's link that stops a pending change.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("proven_at", "timestamptz").execute();
  await db.schema.alterTable("sessions").addColumn("second_factor_proven_at", "timestamptz").execute();
  await db.schema
    .alterTable("passkeys")
    .addColumn("proven", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable("passkeys")
    .addColumn("second_factor_proven", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable("email_changes")
    .addColumn("cancel_token_hash", "text", (c) => c.unique())
    .execute();
  await db.schema.createIndex("webauthn_challenges_user_idx").on("webauthn_challenges").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("webauthn_challenges_user_idx").execute();
  await db.schema.alterTable("email_changes").dropColumn("cancel_token_hash").execute();
  await db.schema.alterTable("passkeys").dropColumn("second_factor_proven").execute();
  await db.schema.alterTable("passkeys").dropColumn("proven").execute();
  await db.schema.alterTable("sessions").dropColumn("second_factor_proven_at").execute();
  await db.schema.alterTable("sessions").dropColumn("proven_at").execute();
}
