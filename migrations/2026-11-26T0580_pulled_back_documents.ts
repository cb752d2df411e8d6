import { type Kysely, sql } from "kysely";

// A share the firm pulls back (issue 34; docs/decisions.md, "The client's record") goes to the
// trash out of the client's sight: the client's trash does not list it and cannot restore or delete
// it; the firm's trash can. A client's own upload the firm deletes stays in the client's trash.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table documents add column pulled_back boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table documents drop column pulled_back`.execute(db);
}
