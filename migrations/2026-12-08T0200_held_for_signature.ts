import { type Kysely, sql } from "kysely";

// A PDF the firm uploads while preparing a signature request (docs/decisions.md, "A PDF for a
// signature request waits for the request") is the firm's until the request is sent: the account's
// people neither list, search, preview, download nor export it. Sending the request clears the
// mark; a draft abandoned before it leaves the file with the firm only.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table documents add column held_for_signature boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table documents drop column held_for_signature`.execute(db);
}
