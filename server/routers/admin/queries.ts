import { tableCounts } from "../../db/row-counts.ts";
import type { Db } from "../../db/types.ts";
import { liveDocumentCount } from "../documents/queries.ts";

export async function countAll(db: Db) {
  const [counts, liveDocuments] = await Promise.all([tableCounts(db, ["users", "appointments", "folders"]), liveDocumentCount(db)]);
  return {
    total_users: counts.users,
    total_documents: liveDocuments,
    total_appointments: counts.appointments,
    total_folders: counts.folders,
  };
}
