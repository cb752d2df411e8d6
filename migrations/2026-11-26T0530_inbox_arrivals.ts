import { type Kysely, sql } from "kysely";

// The Inbox is where the firm's work arrives (issue 34): a client's messages and their own bookings,
// moves and cancellations join uploads, submitted requests, consultations and appointment requests.
// Each item names the person who acted (`actor_id`, kept as null once they are deleted), so the
// list says "Maria Garcia uploaded 10 files" rather than an account's or a login's name, and a
// person's uploads to one account group by person.
const KINDS_BEFORE = ["upload", "request_submitted", "consultation", "appointment_request"];
const KINDS = [...KINDS_BEFORE, "message", "appointment_booked", "appointment_rescheduled", "appointment_cancelled"];

function kindCheck(kinds: string[]) {
  return sql.raw(`check (kind in (${kinds.map((kind) => `'${kind}'`).join(", ")}))`);
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table inbox_items drop constraint inbox_items_kind_check`.execute(db);
  await sql`alter table inbox_items add constraint inbox_items_kind_check ${kindCheck(KINDS)}`.execute(db);
  await sql`alter table inbox_items add column actor_id uuid references users (id) on delete set null`.execute(db);
  // Grouping asks for an account's unread item of a kind about one thing (an appointment, a request).
  await sql`create index inbox_items_subject_idx on inbox_items (account_id, subject_id) where read_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index inbox_items_subject_idx`.execute(db);
  await sql`alter table inbox_items drop column actor_id`.execute(db);
  await sql`delete from inbox_items where kind not in (${sql.join(KINDS_BEFORE)})`.execute(db);
  await sql`alter table inbox_items drop constraint inbox_items_kind_check`.execute(db);
  await sql`alter table inbox_items add constraint inbox_items_kind_check ${kindCheck(KINDS_BEFORE)}`.execute(db);
}
