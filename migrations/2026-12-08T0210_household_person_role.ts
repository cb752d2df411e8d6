import { type Kysely, sql } from "kysely";

// A household person's role (docs/decisions.md, "A household person's role"): taxpayer, spouse or
// dependent, set when the person is added or invited (an invitation carries it to the contact its
// acceptance makes) and changeable. Null for everyone else: a business's or an individual's people,
// and a household's people nobody has said yet.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["account_contacts", "invitations"]) {
    await sql`alter table ${sql.table(table)} add column household_role text`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.raw(`${table}_household_role_check`)} check (household_role in ('taxpayer', 'spouse', 'dependent'))`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["account_contacts", "invitations"]) {
    await sql`alter table ${sql.table(table)} drop column household_role`.execute(db);
  }
}
