import { type Kysely, sql } from "kysely";

// Clients book their own appointments (docs/decisions.md, Self-booking). The firm's availability is
// one settings row (notice, horizon), its weekly hours (minutes of the day on the firm's clock,
// several ranges a weekday) and its days off; meeting types say how long a booking lasts and how
// long the firm keeps free after it. A booked appointment holds the range it takes, buffer
// included, in `during`, and no two requested or scheduled appointments may overlap: the
// exclusion constraint decides between two bookings of one time, not a check before the insert.
// Appointments made before (requests by time window, the firm's own entries) have no range and are
// not part of the constraint.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists btree_gist`.execute(db);

  await db.schema
    .createTable("booking_settings")
    .addColumn("id", "boolean", (c) =>
      c
        .primaryKey()
        .defaultTo(true)
        .check(sql`id`),
    )
    .addColumn("min_notice_hours", "integer", (c) =>
      c
        .notNull()
        .defaultTo(24)
        .check(sql`min_notice_hours between 0 and 720`),
    )
    .addColumn("horizon_days", "integer", (c) =>
      c
        .notNull()
        .defaultTo(60)
        .check(sql`horizon_days between 1 and 365`),
    )
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.insertInto("booking_settings").values({ id: true }).execute();

  await db.schema
    .createTable("availability_ranges")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("weekday", "integer", (c) => c.notNull().check(sql`weekday between 1 and 7`))
    .addColumn("start_minute", "integer", (c) => c.notNull())
    .addColumn("end_minute", "integer", (c) => c.notNull())
    .addCheckConstraint("availability_ranges_minutes", sql`start_minute >= 0 and end_minute <= 1440 and start_minute < end_minute`)
    .execute();
  // Monday to Friday, 9 to 5, until the firm says otherwise; nothing is bookable before it adds a meeting type.
  await db
    .insertInto("availability_ranges")
    .values([1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_minute: 9 * 60, end_minute: 17 * 60 })))
    .execute();

  await db.schema
    .createTable("days_off")
    .addColumn("day", "date", (c) => c.primaryKey())
    .execute();

  await db.schema
    .createTable("meeting_types")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("duration_minutes", "integer", (c) => c.notNull().check(sql`duration_minutes between 5 and 480`))
    .addColumn("buffer_minutes", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`buffer_minutes between 0 and 240`),
    )
    .addColumn("location", "text", (c) => c.notNull().check(sql`location in ('office', 'phone', 'video')`))
    .addColumn("location_detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("requires_approval", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // Deleting a type that appointments name keeps its row for them; it is no longer offered.
    .addColumn("deleted_at", "timestamptz")
    .execute();

  await db.schema
    .alterTable("appointments")
    .addColumn("meeting_type_id", "uuid", (c) => c.references("meeting_types.id"))
    .addColumn("ends_at", "timestamptz")
    .addColumn("during", sql`tstzrange`)
    // SEQUENCE of the appointment's calendar event: raised by every change the client's calendar must take.
    .addColumn("ics_sequence", "integer", (c) => c.notNull().defaultTo(0))
    // The start time whose reminder is queued (or needs none): a new time wants a reminder of its own.
    .addColumn("reminder_for", "timestamptz")
    .execute();
  await sql`
    alter table appointments add constraint appointments_no_overlap
    exclude using gist (during with &&) where (status in ('requested', 'scheduled'))
  `.execute(db);
  await sql`
    alter table appointments add constraint appointments_booked_range
    check ((during is null) = (ends_at is null) and (during is null or (lower(during) = appointment_date and upper(during) >= ends_at and ends_at > appointment_date)))
  `.execute(db);
  await sql`create index appointments_reminder_idx on appointments (appointment_date) where status = 'scheduled'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("appointments_reminder_idx").execute();
  await sql`alter table appointments drop constraint appointments_booked_range`.execute(db);
  await sql`alter table appointments drop constraint appointments_no_overlap`.execute(db);
  await db.schema
    .alterTable("appointments")
    .dropColumn("reminder_for")
    .dropColumn("ics_sequence")
    .dropColumn("during")
    .dropColumn("ends_at")
    .dropColumn("meeting_type_id")
    .execute();
  await db.schema.dropTable("meeting_types").execute();
  await db.schema.dropTable("days_off").execute();
  await db.schema.dropTable("availability_ranges").execute();
  await db.schema.dropTable("booking_settings").execute();
  await sql`drop extension if exists btree_gist`.execute(db);
}
