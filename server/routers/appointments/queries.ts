import { sql } from "kysely";
import type { AppointmentsTable, Db } from "../../db/types.ts";
import { containsPattern } from "../../db/search.ts";

const appointmentColumns = [
  "appointments.id",
  "appointments.title",
  "appointments.description",
  "appointments.appointment_date",
  "appointments.status",
] as const;

/** The user's own appointments: upcoming ones first (soonest first), then past ones (latest first). */
export async function listUserAppointments(db: Db, userId: string, now: Date) {
  return db
    .selectFrom("appointments")
    .select(appointmentColumns)
    .where("user_id", "=", userId)
    .orderBy(sql`appointment_date < ${now}`)
    .orderBy(sql`case when appointment_date >= ${now} then appointment_date end`, "asc")
    .orderBy("appointment_date", "desc")
    .orderBy("id")
    .execute();
}

export async function insertAppointment(
  db: Db,
  appointment: { user_id: string; title: string; description: string; appointment_date: Date; status: AppointmentsTable["status"]; now: Date },
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

function adminAppointments(db: Db) {
  return db.selectFrom("appointments").innerJoin("users", "users.id", "appointments.user_id");
}

const adminAppointmentColumns = [...appointmentColumns, "appointments.user_id", "users.name as user_name", "users.email as user_email"] as const;

export async function findAdminAppointment(db: Db, id: string) {
  return adminAppointments(db).select(adminAppointmentColumns).where("appointments.id", "=", id).executeTakeFirst();
}

/** Every client's appointments, latest date first; `q` matches the title or the client's name or email. */
export async function listAdminAppointments(db: Db, page: { q?: string; user_id?: string; limit: number; offset: number }) {
  let query = adminAppointments(db);
  if (page.user_id) query = query.where("appointments.user_id", "=", page.user_id);
  if (page.q) {
    const pattern = containsPattern(page.q);
    query = query.where((eb) =>
      eb.or([eb("appointments.title", "ilike", pattern), eb("users.name", "ilike", pattern), eb("users.email", "ilike", pattern)]),
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
