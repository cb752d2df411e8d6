import { type Kysely, sql } from "kysely";

// How many upcoming appointments one client may hold through self-booking (docs/security.md,
// "Round 3 (issue 28)"): one client booked all 144 free times in 4.8 seconds. The firm sets it
// with the other booking rules; 3 until it does.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table booking_settings add column max_upcoming_bookings integer not null default 3
    check (max_upcoming_bookings between 1 and 50)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table booking_settings drop column max_upcoming_bookings`.execute(db);
}
