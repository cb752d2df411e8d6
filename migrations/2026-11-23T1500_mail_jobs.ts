import type { Kysely } from "kysely";

// Every email is a job. `sent_mail` records each job whose message the mail server accepted, in the
// same transaction as what the sending means (a consultation's email_sent_at), so a job run again
// (a retry after a crash, a job handed out twice) finds it and sends nothing. Rows outlive the jobs
// they name and are swept after 30 days. A consultation's email_failed_at is set when its
// notification gave up after its last retry; resending clears it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sent_mail")
    .addColumn("job_id", "uuid", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("sent_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sent_mail_sent_at").on("sent_mail").column("sent_at").execute();
  await db.schema.alterTable("consultation_requests").addColumn("email_failed_at", "timestamptz").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("consultation_requests").dropColumn("email_failed_at").execute();
  await db.schema.dropTable("sent_mail").execute();
}
