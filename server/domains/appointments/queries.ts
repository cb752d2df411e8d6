import { sql } from "kysely";
import type { AppointmentsTable, Db } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import { containsPattern } from "../../db/search.ts";

const appointmentColumns = [
  "appointments.id",
  "appointments.title",
  "appointments.description",
  "appointments.appointment_date",
  "appointments.status",
  "appointments.meeting_type_id",
  "appointments.ends_at",
  "meeting_types.location",
  "meeting_types.location_detail",
] as const;

/** Appointments with the place of the meeting type they were booked with (if any). */
function withMeetingType(db: Db) {
  return db.selectFrom("appointments").leftJoin("meeting_types", "meeting_types.id", "appointments.meeting_type_id");
}

/** The user's own appointments: upcoming ones first (soonest first), then past ones (latest first). */
export async function listAccountAppointments(db: Db, accountId: string, now: Date) {
  return withMeetingType(db)
    .select(appointmentColumns)
    .where("appointments.account_id", "=", accountId)
    .orderBy(sql`appointments.appointment_date < ${now}`)
    .orderBy(sql`case when appointments.appointment_date >= ${now} then appointments.appointment_date end`, "asc")
    .orderBy("appointments.appointment_date", "desc")
    .orderBy("appointments.id")
    .execute();
}

/** One of the user's own appointments (another user's is not found). */
export function findAccountAppointment(db: Db, accountId: string, id: string) {
  return withMeetingType(db)
    .select(appointmentColumns)
    .where("appointments.account_id", "=", accountId)
    .where("appointments.id", "=", id)
    .executeTakeFirst();
}

export async function insertAppointment(
  db: Db,
  appointment: {
    account_id: string;
    booked_by?: string;
    title: string;
    description: string;
    appointment_date: Date;
    status: AppointmentsTable["status"];
    now: Date;
  },
): Promise<{ id: string }> {
  const { now, ...values } = appointment;
  return db
    .insertInto("appointments")
    .values({ ...values, created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
}

export async function updateAppointment(
  db: Db,
  id: string,
  changes: Partial<Pick<AppointmentsTable, "title" | "description" | "status">> & { appointment_date?: Date },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable("appointments")
    .set({ ...changes, updated_at: now })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// The firm's rows name the account by its first owner (the view account_owners), as they named the
// client person before; an account nobody has joined yet by its own name.
function adminAppointments(db: Db, scope: FirmScope) {
  return withMeetingType(db)
    .innerJoin("accounts", "accounts.id", "appointments.account_id")
    .leftJoin("account_owners as users", "users.account_id", "appointments.account_id")
    .where(inFirmScope(scope, "appointments.account_id"));
}

const adminAppointmentColumns = [
  ...appointmentColumns,
  sql<string>`coalesce(users.id, appointments.account_id)`.as("user_id"),
  sql<string>`coalesce(users.name, accounts.name)`.as("user_name"),
  sql<string>`coalesce(users.email, '')`.as("user_email"),
] as const;

export async function findAdminAppointment(db: Db, scope: FirmScope, id: string) {
  return adminAppointments(db, scope).select(adminAppointmentColumns).where("appointments.id", "=", id).executeTakeFirst();
}

/** Every client's appointments, latest date first; `q` matches the title or the client's name or email. */
export async function listAdminAppointments(db: Db, scope: FirmScope, page: { q?: string; accountId?: string; limit: number; offset: number }) {
  let query = adminAppointments(db, scope);
  if (page.accountId) query = query.where("appointments.account_id", "=", page.accountId);
  if (page.q) {
    const pattern = containsPattern(page.q);
    query = query.where((eb) =>
      eb.or([
        eb("appointments.title", "ilike", pattern),
        eb("accounts.name", "ilike", pattern),
        eb("users.name", "ilike", pattern),
        eb("users.email", "ilike", pattern),
      ]),
    );
  }
  const [items, count] = await Promise.all([
    query
      .select(adminAppointmentColumns)
      .orderBy("appointments.appointment_date", "desc")
      .orderBy("appointments.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow(),
  ]);
  return { items, total: count.total };
}

/** How long a time the firm entered itself (no meeting type, so no length) keeps from being booked. */
const FIRM_ENTRY_MINUTES = 60;

/**
 * Times taken between `from` and `to`: every requested or scheduled booking with its buffer, and the
 * firm's own scheduled entries for FIRM_ENTRY_MINUTES. `exceptId`: the appointment being moved.
 */
export async function busyIntervals(db: Db, window: { from: Date; to: Date; exceptId?: string }): Promise<Array<{ start: Date; end: Date }>> {
  let booked = db
    .selectFrom("appointments")
    .select([sql<Date>`lower(during)`.as("start"), sql<Date>`upper(during)`.as("end")])
    .where("status", "in", ["requested", "scheduled"])
    .where(sql<boolean>`during && tstzrange(${window.from}, ${window.to}, '[)')`);
  const entryMs = FIRM_ENTRY_MINUTES * 60_000;
  let entries = db
    .selectFrom("appointments")
    .select("appointment_date")
    .where("status", "=", "scheduled")
    .where("during", "is", null)
    .where("appointment_date", ">", new Date(window.from.getTime() - entryMs))
    .where("appointment_date", "<", window.to);
  if (window.exceptId) {
    booked = booked.where("id", "<>", window.exceptId);
    entries = entries.where("id", "<>", window.exceptId);
  }
  const [ranges, dates] = await Promise.all([booked.execute(), entries.execute()]);
  return [...ranges, ...dates.map(({ appointment_date: start }) => ({ start, end: new Date(start.getTime() + entryMs) }))];
}

export type BookedTimes = {
  start: Date;
  /** The end of the meeting. */
  end: Date;
  /** The end of the buffer after it: the upper bound of the range no other booking may overlap. */
  busyUntil: Date;
};

/**
 * Locks the account's row until the transaction ends, so that its bookings (by any of its people)
 * happen one at a time and the count of its upcoming ones (below) cannot be passed in parallel.
 */
export async function lockClientBookings(tx: Db, accountId: string): Promise<void> {
  await tx.selectFrom("accounts").select("id").where("id", "=", accountId).forNoKeyUpdate().execute();
}

/** The client's self-booked appointments (with a meeting type) that are still open and start after `now`. */
export async function countUpcomingBookings(db: Db, accountId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom("appointments")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("account_id", "=", accountId)
    .where("meeting_type_id", "is not", null)
    .where("status", "in", ["requested", "scheduled"])
    .where("appointment_date", ">", now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertBookedAppointment(
  db: Db,
  appointment: {
    account_id: string;
    booked_by: string;
    meeting_type_id: string;
    title: string;
    description: string;
    status: "requested" | "scheduled";
    times: BookedTimes;
    reminder_for: Date | null;
    now: Date;
  },
): Promise<{ id: string }> {
  const { times, now, ...values } = appointment;
  return db
    .insertInto("appointments")
    .values({
      ...values,
      appointment_date: times.start,
      ends_at: times.end,
      during: sql<string>`tstzrange(${times.start}, ${times.busyUntil}, '[)')`,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** One appointment's time and state. */
function appointmentTimes(db: Db, id: string) {
  return db
    .selectFrom("appointments")
    .select([
      "id",
      "account_id",
      "status",
      "title",
      "meeting_type_id",
      "appointment_date",
      "ends_at",
      sql<Date | null>`upper(during)`.as("busy_until"),
      "ics_sequence",
    ])
    .where("id", "=", id);
}

/**
 * The account's own appointment's time and state, another account's answering like a missing one; with
 * `lock`, locked for the change the caller is about to make.
 */
export function findAppointmentTimes(db: Db, id: string, accountId: string, opts: { lock?: boolean } = {}) {
  const query = appointmentTimes(db, id).where("account_id", "=", accountId);
  return (opts.lock ? query.forUpdate() : query).executeTakeFirst();
}

/** A client's appointment's time and state, for the firm within the asker's reach; with `lock`, locked for the firm's change. */
export function findAppointmentTimesForFirm(db: Db, scope: FirmScope, id: string, opts: { lock?: boolean } = {}) {
  const query = appointmentTimes(db, id).where(inFirmScope(scope, "account_id"));
  return (opts.lock ? query.forUpdate() : query).executeTakeFirst();
}

/** Sets a new time (and status) for an appointment, its range moved along; the calendar event's sequence goes up. */
export async function moveAppointment(
  db: Db,
  id: string,
  change: { times: BookedTimes | { start: Date }; status: AppointmentsTable["status"]; reminder_for: Date | null; now: Date },
): Promise<void> {
  const { times } = change;
  await db
    .updateTable("appointments")
    .set({
      appointment_date: times.start,
      ...("end" in times ? { ends_at: times.end, during: sql<string>`tstzrange(${times.start}, ${times.busyUntil}, '[)')` } : {}),
      status: change.status,
      reminder_for: change.reminder_for,
      ics_sequence: sql<number>`ics_sequence + 1`,
      updated_at: change.now,
    })
    .where("id", "=", id)
    .execute();
}

/** A new status; `reminder_for` as reminderFor() says when it becomes scheduled (untouched when left out). */
export async function setAppointmentStatus(
  db: Db,
  id: string,
  status: AppointmentsTable["status"],
  now: Date,
  reminder_for?: Date | null,
): Promise<void> {
  await db
    .updateTable("appointments")
    .set({ status, ics_sequence: sql<number>`ics_sequence + 1`, updated_at: now, ...(reminder_for !== undefined ? { reminder_for } : {}) })
    .where("id", "=", id)
    .execute();
}

/** Admin week view: every appointment starting in [from, to) except cancelled ones, by start. */
export async function listAppointmentsBetween(db: Db, scope: FirmScope, range: { from: Date; to: Date }) {
  return adminAppointments(db, scope)
    .select(adminAppointmentColumns)
    .where("appointments.appointment_date", ">=", range.from)
    .where("appointments.appointment_date", "<", range.to)
    .where("appointments.status", "<>", "cancelled")
    .orderBy("appointments.appointment_date")
    .orderBy("appointments.id")
    .limit(1000)
    .execute();
}

/**
 * Marks the scheduled appointments starting in (now, until] whose current time has no reminder
 * yet as reminded, and returns them. One statement: two sweeps at once cannot both take one.
 */
export async function takeDueReminders(db: Db, now: Date, until: Date): Promise<Array<{ id: string; appointment_date: Date }>> {
  return db
    .updateTable("appointments")
    .set({ reminder_for: sql`appointment_date` })
    .where("status", "=", "scheduled")
    .where("appointment_date", ">", now)
    .where("appointment_date", "<=", until)
    .where(sql<boolean>`reminder_for is distinct from appointment_date`)
    .returning(["id", "appointment_date"])
    .execute();
}

/** The appointment, its client and its meeting type, as the mails about it tell them. */
export async function findAppointmentForMail(db: Db, appointmentId: string) {
  return (
    db
      .selectFrom("appointments")
      // Told to the person who booked it, else the account's first contact with notify; the client's
      // mails go to every contact with notify (`to`).
      .innerJoin("account_contacts as c", (join) => join.onRef("c.account_id", "=", "appointments.account_id").on("c.notify", "=", true))
      .innerJoin("users", "users.id", "c.user_id")
      .leftJoin("meeting_types", "meeting_types.id", "appointments.meeting_type_id")
      .select([
        "users.name",
        "users.email",
        "users.email_verified_at",
        sql<string>`(select string_agg(u.email, ', ' order by (n.role = 'owner') desc, n.created_at) from account_contacts n join users u on u.id = n.user_id where n.account_id = appointments.account_id and n.notify)`.as(
          "to",
        ),
        "appointments.account_id",
        "appointments.title",
        "appointments.description",
        "appointments.status",
        "appointments.appointment_date",
        "appointments.ends_at",
        "meeting_types.name as type_name",
        "meeting_types.location",
        "meeting_types.location_detail",
      ])
      .where("appointments.id", "=", appointmentId)
      .orderBy(sql`c.user_id = appointments.booked_by`, (ob) => ob.desc().nullsLast())
      .orderBy(sql`c.role = 'owner'`, "desc")
      .orderBy("c.created_at")
      .limit(1)
      .executeTakeFirst()
  );
}
