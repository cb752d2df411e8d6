import { sql } from "kysely";
import { containsPattern } from "../../db/search.ts";
import type { Db } from "../../db/types.ts";

type NewConsultationRequest = {
  name: string;
  email: string;
  phone: string;
  service: string | null;
  preferred_date: string | null;
  preferred_time: string | null;
  message: string;
  created_at: Date;
};

export async function insertConsultationRequest(db: Db, request: NewConsultationRequest): Promise<{ id: string }> {
  return db.insertInto("consultation_requests").values(request).returning("id").executeTakeFirstOrThrow();
}

export async function markConsultationEmailSent(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable("consultation_requests").set({ email_sent_at: at, email_failed_at: null }).where("id", "=", id).execute();
}

export async function markConsultationEmailFailed(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable("consultation_requests").set({ email_failed_at: at }).where("id", "=", id).where("email_sent_at", "is", null).execute();
}

/**
 * Makes a failed notification pending again, if it is failed; false otherwise (already sent, or
 * still being tried). The row stays locked until the caller's transaction ends, so two resends
 * cannot both see it failed.
 */
export async function reopenFailedConsultationEmail(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable("consultation_requests")
    .set({ email_failed_at: null })
    .where("id", "=", id)
    .where("email_sent_at", "is", null)
    .where("email_failed_at", "is not", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findConsultationRequest(db: Db, id: string) {
  return db.selectFrom("consultation_requests").select(consultationColumns).where("id", "=", id).executeTakeFirst();
}

const consultationColumns = [
  "id",
  "name",
  "email",
  "phone",
  "service",
  sql<string | null>`to_char(preferred_date, 'YYYY-MM-DD')`.as("preferredDate"),
  "preferred_time as preferredTime",
  "message",
  "created_at",
  "handled_at",
  "email_sent_at",
  "email_failed_at",
] as const;

/** Newest first; `q` matches name, email or phone. */
export async function listConsultationRequests(db: Db, page: { q?: string; limit: number; offset: number }) {
  let query = db.selectFrom("consultation_requests");
  if (page.q) {
    const pattern = containsPattern(page.q);
    query = query.where((eb) => eb.or([eb("name", "ilike", pattern), eb("email", "ilike", pattern), eb("phone", "ilike", pattern)]));
  }
  const [items, count] = await Promise.all([
    query.select(consultationColumns).orderBy("created_at", "desc").orderBy("id", "desc").limit(page.limit).offset(page.offset).execute(),
    query.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow(),
  ]);
  return { items, total: count.total };
}

export async function setConsultationHandledAt(db: Db, id: string, handledAt: Date | null): Promise<boolean> {
  const result = await db.updateTable("consultation_requests").set({ handled_at: handledAt }).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
