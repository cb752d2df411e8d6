import { type Kysely, sql } from "kysely";

// Organizers' due-date reminder (issue 36; server/jobs/organizer-reminders.ts): the due date the
// reminder was queued for, so it goes once, and once more only if the firm's due date changes.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table organizers add column due_reminder_for date`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table organizers drop column due_reminder_for`.execute(db);
}
