import type { Db } from "./types.ts";

type CountedTable = "users" | "documents" | "folders" | "appointments";

/** Row counts kept by triggers (migration row_counts), so they cost one index lookup, not a scan. */
export async function tableCounts(db: Db, tables: CountedTable[]): Promise<Record<CountedTable, number>> {
  const rows = await db.selectFrom("row_counts").select(["table_name", "row_count"]).where("table_name", "in", tables).execute();
  const counts = { users: 0, documents: 0, folders: 0, appointments: 0 };
  for (const row of rows) counts[row.table_name] = row.row_count;
  return counts;
}
