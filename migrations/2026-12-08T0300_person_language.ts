import { type Kysely, sql } from "kysely";

// Each person's language (docs/i18n.md, issue 50): what their portal, emails, reminders and PDFs
// speak. The firm sets it when inviting and acceptance carries it onto the person; a client changes
// it in their settings. English for everyone so far.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column language text not null default 'en' constraint users_language_check check (language in ('en', 'es'))`.execute(
    db,
  );
  await sql`alter table invitations add column language text not null default 'en' constraint invitations_language_check check (language in ('en', 'es'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table invitations drop column language`.execute(db);
  await sql`alter table users drop column language`.execute(db);
}
