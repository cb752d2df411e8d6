import { tableCounts } from "../../db/row-counts.ts";
import type { Db } from "../../db/types.ts";
import { trashedDocumentCount } from "../documents/queries.ts";

/** The kept counts in one read; documents less the trash. */
export async function countAll(db: Db) {
  const [counts, trashed] = await Promise.all([tableCounts(db, ["users", "documents", "appointments", "folders"]), trashedDocumentCount(db)]);
  return {
    total_users: counts.users,
    total_documents: counts.documents - trashed,
    total_appointments: counts.appointments,
    total_folders: counts.folders,
  };
}
