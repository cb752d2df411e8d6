import { type Kysely, sql } from "kysely";

// A signer is reminded at most once a day (issue 47, item 5; docs/security.md, Round 4): when the
// firm last reminded this signer, claimed by the reminder's conditional UPDATE.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table signature_signers add column last_reminded_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table signature_signers drop column last_reminded_at`.execute(db);
}
