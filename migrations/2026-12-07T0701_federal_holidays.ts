import { type Kysely, sql } from "kysely";

// Self-booking skips the US federal holidays unless the firm opens on them (docs/decisions.md,
// "Federal holidays in self-booking, phone meetings, export confirmation, forms by account
// kind"): a firm that never chose was open on Christmas Day.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table booking_settings add column skip_federal_holidays boolean not null default true`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table booking_settings drop column skip_federal_holidays`.execute(db);
}
