import { sql } from "kysely";
import { tableCounts } from "../../db/row-counts.ts";
import type { Db } from "../../db/types.ts";
import { trashedDocumentCount } from "../documents/firm-queries.ts";
import { type FirmScope, inFirmScope, personInFirmScope } from "../../trpc/firm-scope.ts";

/** The kept counts in one read; documents less the trash. Staff who reach only assigned accounts: those accounts' rows, counted. */
export async function countAll(db: Db, scope: FirmScope) {
  if (!scope.all) return countInScope(db, scope);
  const [counts, trashed] = await Promise.all([tableCounts(db, ["users", "documents", "appointments", "folders"]), trashedDocumentCount(db)]);
  return {
    total_users: counts.users,
    total_documents: counts.documents - trashed,
    total_appointments: counts.appointments,
    total_folders: counts.folders,
  };
}

async function countInScope(db: Db, scope: FirmScope) {
  const count = sql<number>`count(*)::int`.as("n");
  const [users, documents, appointments, folders] = await Promise.all([
    db.selectFrom("users").select(count).where(personInFirmScope(scope, "users.id")).executeTakeFirstOrThrow(),
    db
      .selectFrom("documents")
      .select(count)
      .where("deleted_at", "is", null)
      .where(inFirmScope(scope, "documents.account_id"))
      .executeTakeFirstOrThrow(),
    db.selectFrom("appointments").select(count).where(inFirmScope(scope, "appointments.account_id")).executeTakeFirstOrThrow(),
    db.selectFrom("folders").select(count).where(inFirmScope(scope, "folders.account_id")).executeTakeFirstOrThrow(),
  ]);
  return { total_users: users.n, total_documents: documents.n, total_appointments: appointments.n, total_folders: folders.n };
}
