import { tableCounts } from "../../db/row-counts.ts";
import type { Db } from "../../db/types.ts";

export async function countAll(db: Db) {
  const counts = await tableCounts(db, ["users", "documents", "appointments", "folders"]);
  return {
    total_users: counts.users,
    total_documents: counts.documents,
    total_appointments: counts.appointments,
    total_folders: counts.folders,
  };
}
