// Putting things in the firm's Inbox, always with the change's own transaction: an item is there
// exactly when what it tells of happened. A client's uploads within ten minutes of the last one
// join one unread item ("uploaded 7 documents"), so a folder of files is one thing to look at.
import { sql } from "kysely";
import type { Db, InboxItemKind } from "../../db/types.ts";

const UPLOAD_BATCH_MINUTES = 10;
/** Names kept on an upload item, for the Inbox's line; the count says how many there were. */
const UPLOAD_NAMES_KEPT = 5;

type InboxItem = {
  kind: Exclude<InboxItemKind, "upload">;
  client_id: string | null;
  subject_id: string;
  summary: Record<string, unknown>;
  at: Date;
};

export async function addToInbox(db: Db, item: InboxItem): Promise<void> {
  await db
    .insertInto("inbox_items")
    .values({
      kind: item.kind,
      client_id: item.client_id,
      subject_id: item.subject_id,
      summary: JSON.stringify(item.summary),
      first_at: item.at,
      last_at: item.at,
    })
    .execute();
}

/** A client's own upload: joins their unread upload item of the last ten minutes, or starts one. */
export async function addUploadToInbox(db: Db, upload: { client_id: string; document_id: string; name: string; at: Date }): Promise<void> {
  const joined = await db
    .updateTable("inbox_items")
    .set({
      subject_id: upload.document_id,
      last_at: upload.at,
      summary: sql`jsonb_build_object(
        'count', (summary ->> 'count')::int + 1,
        'names', case when jsonb_array_length(summary -> 'names') < ${UPLOAD_NAMES_KEPT}
                      then (summary -> 'names') || to_jsonb(${upload.name}::text)
                      else summary -> 'names' end)`,
    })
    .where(
      "id",
      "=",
      db
        .selectFrom("inbox_items")
        .select("id")
        .where("kind", "=", "upload")
        .where("client_id", "=", upload.client_id)
        .where("read_at", "is", null)
        .where("last_at", ">", new Date(upload.at.getTime() - UPLOAD_BATCH_MINUTES * 60_000))
        .orderBy("last_at", "desc")
        .limit(1),
    )
    .executeTakeFirst();
  if (joined.numUpdatedRows > 0n) return;
  await db
    .insertInto("inbox_items")
    .values({
      kind: "upload",
      client_id: upload.client_id,
      subject_id: upload.document_id,
      summary: JSON.stringify({ count: 1, names: [upload.name] }),
      first_at: upload.at,
      last_at: upload.at,
    })
    .execute();
}
